/**
 * The field reference is written once, in the zod schemas: docs/api.md's section is what
 * scripts/docs/field-reference.ts renders from them, the OpenAPI document (and so the /docs page)
 * carries the same descriptions, and no field goes undescribed or leaves `null` unexplained.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { API_DOC, SHAPES, fieldRows, renderFieldReference, withSection } from '../../scripts/docs/field-reference.js';
import { openApiDocument } from '../../src/api/http/openapi.js';
import { ROUTES } from '../../src/api/http/routes.js';
import { Annonce, AnnonceMapPoint } from '../../src/core/model/annonce.js';
import { VERSION } from '../../src/service.js';

type Schema = { properties?: Record<string, { description?: string }> };

describe('field reference', () => {
  it('docs/api.md holds the reference rendered from the schemas (npx tsx scripts/docs/field-reference.ts)', () => {
    const document = readFileSync(API_DOC, 'utf8');
    expect(withSection(document, renderFieldReference()) === document, 'docs/api.md differs: run npx tsx scripts/docs/field-reference.ts').to.equal(true);
  });

  for (const shape of SHAPES) {
    it(`${shape.title}: every field has a description, and every nullable one says what null means`, () => {
      const rows = fieldRows(shape.schema, shape.only);
      expect(rows.length).to.be.greaterThan(0);
      for (const row of rows) {
        expect(row.description, `${row.field} has no description`).to.be.a('string').and.not.equal('');
        if (row.nullable) expect(row.description!.toLowerCase(), `${row.field}: what does null mean?`).to.include('null');
      }
    });
  }

  it('the OpenAPI document gives each field of a listing and a map point the same description', () => {
    const schemas = (openApiDocument(ROUTES, VERSION).components as { schemas: Record<string, Schema> }).schemas;
    for (const [name, schema] of [
      ['Annonce', Annonce],
      ['AnnonceMapPoint', AnnonceMapPoint],
    ] as const) {
      const served = schemas[name]?.properties;
      expect(served, `${name} in components.schemas`).to.not.equal(undefined);
      for (const row of fieldRows(schema).filter((r) => !r.field.includes('.'))) {
        expect(served![row.field]?.description, `${name}.${row.field}`).to.equal(row.description);
      }
    }
  });

  it('a missing description fails the check', () => {
    const rows = fieldRows(SHAPES[0].schema.extend({ undocumented: Annonce.shape.price.unwrap() }));
    expect(rows.find((r) => r.field === 'undocumented')?.description).to.equal(undefined);
  });
});
