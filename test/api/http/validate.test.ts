/**
 * Route input: the handler receives the value its schema parsed; malformed fields are a 400 naming
 * each of them, contradictions a schema declares are a 422 only when every field is well formed.
 */
import { expect } from 'chai';
import { MapParams } from '../../../src/api/routes/map/schema.js';
import { SearchParams } from '../../../src/api/routes/annonces/schema.js';
import { input } from '../../../src/api/http/middleware/validate.js';
import { ApiError } from '../../../src/api/http/errors.js';
import type { ApiContext } from '../../../src/api/http/state.js';

const requestWith = (query: Record<string, string>) => ({ query }) as unknown as ApiContext;

async function refusal(schema: typeof SearchParams | typeof MapParams, query: Record<string, string>): Promise<ApiError> {
  const error = await input({ query: schema })
    .validate(requestWith(query), async () => {})
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).to.be.instanceOf(ApiError);
  return error as ApiError;
}

const fields = (error: ApiError) => (error.extra.details as { field: string }[]).map((d) => d.field);

describe('route input (validate middleware)', () => {
  it('hands the handler the parsed value, typed from the schema', async () => {
    const search = input({ query: SearchParams });
    const ctx = requestWith({ prix_min: '100', page_size: '10' });
    let received: SearchParams | null = null;
    await search.validate(ctx, () =>
      search.handle(async (_ctx, params) => {
        received = params;
      })(ctx, async () => {}),
    );
    expect(received).to.include({ prix_min: 100, page_size: 10, page: 1, sort: 'recent' });
  });

  it('refuses to run a handler whose validate middleware did not run', async () => {
    const search = input({ query: SearchParams });
    const error = await search
      .handle(async () => {})(requestWith({}), async () => {})
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error?.message).to.match(/without its validate middleware/);
  });

  it('a min above its max is a 422 naming each contradictory field', async () => {
    const error = await refusal(SearchParams, { prix_min: '500', prix_max: '100', annee_min: '2000', annee_max: '1990' });
    expect([error.status, error.code]).to.deep.equal([422, 'UNPROCESSABLE']);
    expect(fields(error)).to.deep.equal(['prix_min', 'annee_min']);
  });

  it('a malformed field wins over a contradiction: 400 naming only the malformed ones', async () => {
    const error = await refusal(SearchParams, { prix_min: '500', prix_max: '100', page_size: '0' });
    expect([error.status, error.code]).to.deep.equal([400, 'BAD_REQUEST']);
    expect(fields(error)).to.deep.equal(['page_size']);
  });

  it('the map answers a reversed box and reversed bounds in one 422; a malformed box stays a 400', async () => {
    const both = await refusal(MapParams, { bbox: '50,0,40,10', surface_min: '90', surface_max: '10' });
    expect([both.status, fields(both)]).to.deep.equal([422, ['surface_min', 'bbox']]);
    const malformed = await refusal(MapParams, { bbox: '50,0,40', surface_min: '90', surface_max: '10' });
    expect([malformed.status, fields(malformed)]).to.deep.equal([400, ['bbox']]);
  });
});
