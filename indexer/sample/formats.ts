/** Number and date spellings found in collector output: "350 000 €", "45,5 m²", "03/10/2026"... */

const NBSP = '\u00a0';
const NNBSP = '\u202f';

/** 350000 -> "350 000"; 45.5 -> "45,5" (French digit grouping and decimal comma). */
export function frenchNumber(value: number, separator = ' '): string {
  const text = String(value);
  if (text.length <= 3) return text;
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  let grouped = whole;
  if (whole.length > 3) {
    // Hot path of the generator: plain slicing, no regular expression.
    const head = whole.length % 3 || 3;
    grouped = whole.slice(0, head);
    for (let i = head; i < whole.length; i += 3) grouped += separator + whole.slice(i, i + 3);
  }
  return dot < 0 ? grouped : `${grouped},${text.slice(dot + 1)}`;
}

export type PriceStyle = 'number' | 'numericString' | 'euroSpaced' | 'euroNbsp' | 'eurDotted';
export type RentStyle = 'number' | 'perMonthCC' | 'euroCC' | 'perMonth';

export function formatPrice(value: number, style: PriceStyle): number | string {
  switch (style) {
    case 'number':
      return value;
    case 'numericString':
      return String(value);
    case 'euroSpaced':
      return `${frenchNumber(value)} €`;
    case 'euroNbsp':
      return `${frenchNumber(value, NNBSP)}${NBSP}€`;
    case 'eurDotted':
      return `${frenchNumber(value, '.')} EUR`;
  }
}

export function formatRent(value: number, style: RentStyle): number | string {
  switch (style) {
    case 'number':
      return value;
    case 'perMonthCC':
      return `${frenchNumber(value)} €/mois CC`;
    case 'euroCC':
      return `${frenchNumber(value)} € CC`;
    case 'perMonth':
      return `${frenchNumber(value)} € / mois`;
  }
}

export type SurfaceStyle = 'number' | 'frenchM2' | 'm2' | 'numericString';

export function formatSurface(value: number, style: SurfaceStyle): number | string {
  switch (style) {
    case 'number':
      return value;
    case 'frenchM2':
      return `${frenchNumber(value)} m²`;
    case 'm2':
      return `${frenchNumber(value)} m2`;
    case 'numericString':
      return String(value);
  }
}

export type DateStyle = 'iso' | 'dmy' | 'ymd' | 'sql' | 'isoOffset';

const summerTime = new Map<number, readonly [number, number]>();

/** Paris local time offset (hours) at an instant: summer time from the last Sunday of March to the last Sunday of October, 01:00 UTC. */
function parisOffsetHours(date: Date): number {
  const year = date.getUTCFullYear();
  let bounds = summerTime.get(year);
  if (!bounds) {
    const lastSunday = (month: number) => {
      const end = new Date(Date.UTC(year, month + 1, 0, 1));
      end.setUTCDate(end.getUTCDate() - end.getUTCDay());
      return end.getTime();
    };
    bounds = [lastSunday(2), lastSunday(9)];
    summerTime.set(year, bounds);
  }
  const t = date.getTime();
  return t >= bounds[0] && t < bounds[1] ? 2 : 1;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDate(epochMs: number, style: DateStyle): string {
  const utc = new Date(epochMs);
  if (style === 'iso') return utc.toISOString();
  const offset = parisOffsetHours(utc);
  const local = new Date(epochMs + offset * 3_600_000);
  const ymd = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const hms = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  switch (style) {
    case 'dmy':
      return `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear()}`;
    case 'ymd':
      return ymd;
    case 'sql':
      return `${ymd} ${hms}`;
    case 'isoOffset':
      return `${ymd}T${hms}+0${offset}:00`;
  }
}

export type BooleanStyle = 'boolean' | 'ouiNon' | 'digit';

export function formatBoolean(value: boolean, style: BooleanStyle): boolean | string | number {
  switch (style) {
    case 'boolean':
      return value;
    case 'ouiNon':
      return value ? 'oui' : 'non';
    case 'digit':
      return value ? 1 : 0;
  }
}

export type EnergyStyle = 'letter' | 'lower' | 'prose';

export function formatDpe(letter: string, value: number | null, style: EnergyStyle): string {
  if (style === 'letter') return letter;
  if (style === 'lower') return letter.toLowerCase();
  return value === null ? `Classe énergie : ${letter}` : `Classe énergie : ${letter} (${value} kWh/m².an)`;
}

export function formatGes(letter: string, value: number | null, style: EnergyStyle): string {
  if (style === 'letter') return letter;
  if (style === 'lower') return letter.toLowerCase();
  return value === null ? `Classe climat : ${letter}` : `Classe climat : ${letter} (${value} kg CO2/m².an)`;
}

/**
 * A bijection of [0, modulus) so per-site references look random yet never repeat: multiplying by
 * a number coprime with the modulus (made of the primes 2, 3, 5 and 7 here) permutes the residues.
 * Exact in doubles while counter * multiplier stays below 2^53 (counters below 10^9).
 */
export function scramble(counter: number, modulus: number, offset: number): number {
  return (counter * 7_777_781 + offset) % modulus;
}
