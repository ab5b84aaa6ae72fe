/**
 * Checks live answers against the OpenAPI document the app serves: the body against the declared
 * schema of (path, status) with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1), and every
 * `X-` header against the headers declared for that answer.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Json = Record<string, any>;

export interface ContractAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

export class Contract {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** (path template, status) pairs checked so far, for coverage assertions. */
  readonly seen = new Set<string>();

  constructor(readonly document: Json) {
    // Component schemas by their $ref, so that answers compile against them; `components` is only a container.
    this.ajv.addKeyword('components');
    this.ajv.addSchema({ $id: 'openapi', components: { schemas: document.components.schemas } });
  }

  /** Throws with the schema errors when the answer does not conform to `<method> path` in the document. */
  check(pathTemplate: string, answer: ContractAnswer, method: 'get' | 'post' | 'delete' = 'get'): void {
    const operation = this.document.paths[pathTemplate]?.[method];
    if (!operation) throw new Error(`${method} ${pathTemplate} is not in the document`);
    const declared = operation.responses[String(answer.status)] ?? operation.responses.default;
    if (!declared) throw new Error(`${pathTemplate}: status ${answer.status} is not declared`);
    this.seen.add(`${pathTemplate} ${operation.responses[String(answer.status)] ? answer.status : 'default'}`);
    const schema = declared.content?.['application/json']?.schema;
    if (schema) {
      const validate = this.validator(schema.$ref);
      if (!validate(answer.body)) {
        throw new Error(
          `${pathTemplate} ${answer.status} does not conform: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body).slice(0, 500)}`,
        );
      }
    } else if (answer.body !== '' && answer.body !== null) {
      throw new Error(`${pathTemplate} ${answer.status}: a body where none is declared`);
    }
    const headers = new Set(Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase()));
    for (const [name] of answer.headers) {
      if (name.startsWith('x-') && name !== 'x-content-type-options' && !headers.has(name)) {
        throw new Error(`${pathTemplate} ${answer.status}: header ${name} is not declared`);
      }
    }
  }

  private validator(reference: string): ValidateFunction {
    let validate = this.compiled.get(reference);
    if (!validate) this.compiled.set(reference, (validate = this.ajv.compile({ $ref: `openapi${reference}` })));
    return validate;
  }
}
