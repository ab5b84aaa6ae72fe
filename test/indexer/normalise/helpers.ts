/** A record as a collector writes it, normalised with the real commune table: shared by the normalise tests. */
import { expect } from 'chai';
import { NormaliseError, normaliseRecord, type NormaliseContext, type NormalisedRecord } from '../../../indexer/normalise.js';
import { RawRecord } from '../../../indexer/raw-record.js';
import { loadCommunes } from '../../../src/core/refdata/communes.js';

const SITES: Record<string, string> = { seloger: 'SeLoger', notaires: 'Notaires de France', bienici: "Bien'ici", pap: 'PAP' };
const ctx: NormaliseContext = { communes: loadCommunes(), siteName: (source) => SITES[source] };

export const BASE = {
  source: 'seloger',
  reference: 'A-1',
  url: 'https://www.seloger.com/annonces/achat/appartement/lyon-3eme-69/123.htm',
  collected_at: '2025-06-12T10:00:00.000Z',
  title: 'Appartement 3 pièces',
};

/** Normalise a record given as a collector writes it (validated by the zod RawRecord first). */
export function normalise(fields: Record<string, unknown>): NormalisedRecord {
  return normaliseRecord(RawRecord.parse({ ...BASE, ...fields }), ctx);
}
export const content = (fields: Record<string, unknown>) => normalise(fields).content;

export function rejection(fields: Record<string, unknown>): NormaliseError {
  try {
    normalise(fields);
  } catch (error) {
    expect(error).to.be.instanceOf(NormaliseError);
    return error as NormaliseError;
  }
  expect.fail('expected a NormaliseError');
}

export const NNBSP = '\u202f';
