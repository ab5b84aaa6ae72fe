import { expect } from 'chai';
import fc from 'fast-check';
import { REDACTION_MARKER, redactContacts } from '../../indexer/redact.js';

const M = REDACTION_MARKER;

/**
 * Phrasings seen in real collector output (notaires, agencies, private sellers), each with the
 * exact expected result: the contact is gone, the words around it stay.
 */
const MUST_REDACT: [string, string][] = [
  // French numbers, every grouping people use
  ['Contact : 06 12 34 56 78', `Contact : ${M}`],
  ['Tél. 06.12.34.56.78.', `Tél. ${M}.`],
  ['Appelez le 06-12-34-56-78 !', `Appelez le ${M} !`],
  ['Contactez nous au 0613043550.', `Contactez nous au ${M}.`],
  ['Mobile : +33 6 12 34 56 78', `Mobile : ${M}`],
  ["Depuis l'étranger : +33 (0)6 12 34 56 78", `Depuis l'étranger : ${M}`],
  ['WhatsApp +33612345678', `WhatsApp ${M}`],
  ['Tel: 0033 6 12 34 56 78', `Tel: ${M}`],
  ['Agence : 01 23 45 67 89', `Agence : ${M}`],
  ['Box : 09 72 12 34 56 (non surtaxé)', `Box : ${M} (non surtaxé)`],
  ['Joignable au 06 12 345 678 le soir', `Joignable au ${M} le soir`],
  ['Portable 06 1234 5678', `Portable ${M}`],
  ['Mr MARIO Alexis 06 30 51 46 49.', `Mr MARIO Alexis ${M}.`],
  ["Plus de précisions à l'office au 03-24-35-40-33.", `Plus de précisions à l'office au ${M}.`],
  ['NEUVILLE SUR SAÔNE (69250)  06/24/40/21/14 ou 04.78.91.30.16', `NEUVILLE SUR SAÔNE (69250)  ${M} ou ${M}`],
  ['Service Immobilier  02.35.59.25.40/06.32.71.22.81', `Service Immobilier  ${M}/${M}`],
  ['Contact 06 70 93 9146', `Contact ${M}`],
  ['AUDREY DELACROIX 06.8876.32.90', `AUDREY DELACROIX ${M}`],
  ['service négociation, 06.7.23.43.83 ou par mail', `service négociation, ${M} ou par mail`],
  ['Contact: 06.76.47.14.22Visites uniquement sur rendez-vous', `Contact: ${M}Visites uniquement sur rendez-vous`],
  ['Antilles : 0590 12 34 56', `Antilles : ${M}`],
  ['Propriétaire belge : +32 470 12 34 56', `Propriétaire belge : ${M}`],
  // E-mails, plain and disguised
  ['Écrire à nom.prenom@agence-immo.fr.', `Écrire à ${M}.`],
  ['Email : accueil.27063@notaires.fr;  Contact', `Email : ${M};  Contact`],
  ['ou sur julien.duvaux@13068.notaires.fr', `ou sur ${M}`],
  ['mail : jean [at] agence.fr', `mail : ${M}`],
  ['contact (at) agence (dot) fr', M],
  ['negociation(at)1629.notaires(dot)fr', M],
  ['fabien.demontillet (arobase) notaires .fr - en nous communiquant', `${M} - en nous communiquant`],
  ['jean.dupont arobase gmail point com', M],
  ['ecrire a vendeur[arobase]free.fr svp', `ecrire a ${M} svp`],
  ['<a href="mailto:contact@agence.fr">nous écrire</a>', `<a href="${M}">nous écrire</a>`],
  ['Mail : Service.Negociation@BCDA.notaires.fr', `Mail : ${M}`],
  ['Contact : Vivien LESCAT au 06.75.17.46.36 ou negociation@chwartz.notaires.fr', `Contact : Vivien LESCAT au ${M} ou ${M}`],
  // Doubled or mixed separators, as typed in a hurry
  ['Tél : 04.94..62.44.24', `Tél : ${M}`],
  ['appelez le 06 -- 12 34 56 78', `appelez le ${M}`],
  ['au 04\u00a0\u00a094 / 62 44 24 ou', `au ${M} ou`],
  ['tel 06. .12.34.56.78', `tel ${M}`],
  ['06 12  34   56 78 le soir', `${M} le soir`],
  ['contacter le 0 800 800 838. Référence du lot: B401.', `contacter le ${M}. Référence du lot: B401.`],
];

/** What listings are full of and must come out exactly as they went in. */
const MUST_KEEP: string[] = [
  'Prix : 350 000 € FAI',
  'Vendu 1 200 000 euros, honoraires inclus',
  'Prix net vendeur 350000€',
  'Prix : 1 060 000 € - Honoraires 4,5 %',
  'PRIX : 327 000.00 € - Ref : 01067/902',
  'Surface habitable 45,5 m² (Carrez 44,12 m²)',
  '75008 Paris',
  'Aix-en-Provence 13 100',
  'Construit en 1975, rénové en 2024',
  'Disponible le 12/06/2025, bail du 01/04/2025 au 31/03/2028',
  'Réf. 123456789',
  'Référence annonce : 0123456789',
  'mandat n° 2024-0612',
  'Réf : 044/2025/112 - Les informations sur les risques',
  'Consommation : 245 kWh/m².an, émissions 6 kg CO2/m².an',
  'Classe énergie : D - Classe climat : B',
  'SIRET 012 345 678 00012 - RCS Paris 0123456789',
  'Charges : 1 200 €/an soit 100 €/mois',
  '+ 20 000 € de travaux à prévoir',
  'Taxe foncière : 1 850 €. Copropriété de 54 lots.',
  'Les informations sur les risques : www.georisques.gouv.fr',
  "Au 3e étage sur 5, 2 chambres, 1 salle d'eau",
  'Montant estimé des dépenses annuelles entre 1 852 € et 2 506 € (prix 2021)',
  'Rendez-vous at the agency at 10:30',
  'Suivez-nous sur Instagram @agence.immo',
  'Carte professionnelle CPI 01012024000000020 délivrée par la CCI du Var',
  'CPI 8301 2016 000 012 345 - SIRET 812 345 678 00027',
  'Prix : 210 000 € - 65,5 m² - 4 pièces',
];

describe('redactContacts', () => {
  it(`has at least 25 phrasings to redact and 15 to keep (${MUST_REDACT.length} + ${MUST_KEEP.length})`, () => {
    expect(MUST_REDACT.length).to.be.at.least(25);
    expect(MUST_KEEP.length).to.be.at.least(15);
  });

  describe('removes telephone numbers and e-mail addresses', () => {
    for (const [input, expected] of MUST_REDACT) {
      it(JSON.stringify(input), () => {
        expect(redactContacts(input)).to.equal(expected);
      });
    }
  });

  describe('leaves prices, surfaces, postal codes, years, dates, references and DPE values alone', () => {
    for (const input of MUST_KEEP) {
      it(JSON.stringify(input), () => {
        expect(redactContacts(input)).to.equal(input);
      });
    }
  });

  it('redacts every contact of a multi-line description and keeps its lines', () => {
    const description = [
      'Maison de 120 m² sur 800 m² de terrain, construite en 1975.',
      'Prix : 350 000 € FAI. DPE : D (245 kWh/m².an).',
      'Visites : Jean 06 12 34 56 78 ou jean.martin@agence.fr',
      'Agence du Centre, 01 23 45 67 89.',
    ].join('\n');
    expect(redactContacts(description)).to.equal(
      [
        'Maison de 120 m² sur 800 m² de terrain, construite en 1975.',
        'Prix : 350 000 € FAI. DPE : D (245 kWh/m².an).',
        `Visites : Jean ${M} ou ${M}`,
        `Agence du Centre, ${M}.`,
      ].join('\n'),
    );
  });

  it('returns a text without contacts unchanged, and an empty text as empty', () => {
    expect(redactContacts('')).to.equal('');
    const plain = 'Bel appartement lumineux, 3 pièces, 65 m², 2e étage.';
    expect(redactContacts(plain)).to.equal(plain);
  });

  it('redacts any French number, whatever the separators', () => {
    const digit = fc.integer({ min: 0, max: 9 });
    const separator = fc.constantFrom('', ' ', '.', '-', ' ', '  ', ' - ', '/');
    const prefix = fc.constantFrom('0', '+33 ', '+33', '+33 (0)', '0033 ');
    fc.assert(
      fc.property(
        prefix,
        fc.integer({ min: 1, max: 9 }),
        fc.array(digit, { minLength: 8, maxLength: 8 }),
        separator,
        fc.constantFrom('Tél : ', 'Contact ', 'au ', ''),
        fc.constantFrom('.', ' pour visiter', '', ')'),
        (start, second, rest, sep, before, after) => {
          const pairs = [String(second), `${rest[0]}${rest[1]}`, `${rest[2]}${rest[3]}`, `${rest[4]}${rest[5]}`, `${rest[6]}${rest[7]}`];
          const phone = `${start}${pairs[0]}${sep}${pairs.slice(1).join(sep)}`;
          const out = redactContacts(`${before}${phone}${after}`);
          expect(out).to.equal(`${before}${M}${after}`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never changes prices, surfaces, postal codes or years', () => {
    const grouped = (n: number): string => n.toLocaleString('fr-FR').replace(/\u202f/g, ' ');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1000, max: 98999 }),
        fc.integer({ min: 1700, max: 2100 }),
        (price, surface, postal, year) => {
          const text = `Prix ${grouped(price)} € soit ${price}€, ${surface / 10} m², ${String(postal).padStart(5, '0')} Ville, construit en ${year}`;
          expect(redactContacts(text)).to.equal(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});
