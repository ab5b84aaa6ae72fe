/**
 * Energy classes (DPE, GES): the letter and value from their fields, or the letters from the
 * description's prose when the fields are empty.
 */
import type { DpeLetter } from '../../src/core/model/annonce.js';
import { textOf } from './text.js';
import { MAX_ENERGY_VALUE, MAX_LABEL_LENGTH, numberInRange } from './numbers.js';

export const DPE_VALUE_UNIT = /(\d+(?:[.,]\d+)?)\s*kwh/i;
export const GES_VALUE_UNIT = /(\d+(?:[.,]\d+)?)\s*kg/i;
/** What sites write when there is no class: blank diagnosis, not subject to it, in progress. */
const NO_CLASS =
  /vierge|non soumis|non requis|non communiqu|non disponible|non r[ée]alis|en cours|inconnu|\bnc\b|\bn\/?a\b|blank|exempt|\b[àa]\s+(?:venir|faire|r[ée]aliser|fournir)\b/i;
/** The field is only the letter, possibly followed by its value: `D`, `d`, `D (245 kWh/m².an)`. */
const LEADING_CLASS = /^\s*\(?([a-gA-G])(?![\p{L}\p{N}])/u;
/**
 * A letter after a label, in prose: `Classe énergie : D`, `DPE: d`, `GES en C`, `classe climat B`.
 * Lower-cased but not folded, so `énergie à 245` is not read as class A.
 */
const LABELLED_CLASS =
  /(?:classe|dpe|ges|[ée]nergie|[ée]nerg[ée]tique|climat|[ée]tiquette|lettre|note)(?:\s{0,3}(?:[ée]nergie|[ée]nerg[ée]tique|climat|ges|dpe|classe|class[ée]e?|:|=|-|est|en)){0,4}\s{0,3}\(?([a-g])(?![\p{L}\p{N}])/u;

interface EnergyClass {
  letter: DpeLetter | null;
  value: number | null;
}

/**
 * DPE or GES from its letter field (`"D"`, `"Classe énergie : D (245 kWh/m².an)"`, `"DPE: vierge"`)
 * and its value field; the value is read from the letter's prose when the value field is absent.
 */
export function energyClass(field: unknown, valueField: unknown, valueUnit: RegExp): EnergyClass {
  let value = numberInRange(valueField, 0, MAX_ENERGY_VALUE);
  let letter: DpeLetter | null = null;
  if (typeof field === 'number') {
    if (value === null && field > 0 && field <= MAX_ENERGY_VALUE) value = field;
    return { letter, value };
  }
  const fieldText = textOf(field);
  if (fieldText === null) return { letter, value };
  const text = fieldText.length > MAX_LABEL_LENGTH ? fieldText.slice(0, MAX_LABEL_LENGTH) : fieldText;
  if (!NO_CLASS.test(text)) {
    const match = LEADING_CLASS.exec(text) ?? LABELLED_CLASS.exec(text.toLowerCase());
    if (match) letter = match[1].toUpperCase() as DpeLetter;
  }
  if (value === null) {
    const unit = valueUnit.exec(text);
    if (unit) value = numberInRange(unit[1], 0, MAX_ENERGY_VALUE);
    else if (letter === null && BARE_NUMBER.test(text)) value = numberInRange(text, 0, MAX_ENERGY_VALUE);
  }
  return { letter, value };
}

const BARE_NUMBER = /^\s*\d+(?:[.,]\d+)?\s*$/;

/**
 * Classes stated in a description, with their label right before the letter: group 1 is a DPE
 * label (`Classe énergie : D`, `DPE en D`, `le DPE classé C`), group 2 a GES one (`Classe climat B`,
 * `GES : C`). One scan finds both. The letter must be a capital (or follow a colon), and not open
 * a phrase such as "A venir", so that "le DPE a été réalisé" is not read as class A.
 */
const CLASS_IN_PROSE =
  /(?:(classe\s+(?:d['’]\s*)?[ée]nerg(?:ie|[ée]tique)|\bDPE|[ée]tiquette\s+[ée]nerg(?:ie|[ée]tique))|(classe\s+climat|\bGES|classe\s+(?:d['’]\s*)?[ée]missions?(?:\s+de\s+gaz\s+[àa]\s+effet\s+de\s+serre)?|[ée]tiquette\s+climat))(?:\s{0,3}(?::|=|-|en|est|class[ée]e?|\(nouvelle formule\))){0,4}\s{0,3}\b([A-G])\b(?!\s+(?:venir|faire|r[ée]aliser|fournir|jour|[ée]t[ée])\b)/gi;

export function classesInProse(description: string): { dpe: DpeLetter | null; ges: DpeLetter | null } {
  let dpe: DpeLetter | null = null;
  let ges: DpeLetter | null = null;
  CLASS_IN_PROSE.lastIndex = 0;
  for (let match = CLASS_IN_PROSE.exec(description); match !== null && (dpe === null || ges === null); match = CLASS_IN_PROSE.exec(description)) {
    const letter = match[3];
    const isCapital = letter >= 'A' && letter <= 'G';
    if (!isCapital && !match[0].includes(':')) continue;
    if (match[1] !== undefined) dpe ??= letter.toUpperCase() as DpeLetter;
    else ges ??= letter.toUpperCase() as DpeLetter;
  }
  return { dpe, ges };
}
