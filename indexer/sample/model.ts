/** The ground truth of one sample property, before any site writes it its own way. */
import type { Commune } from '../../src/core/refdata/communes.js';
import type { PropertyKind } from './prices.js';
import type { Seller } from './sellers.js';

export type { PropertyKind } from './prices.js';
export type Transaction = 'vente' | 'location';
export type HouseStyle = 'maison' | 'maison de ville' | 'villa' | 'pavillon';
export type EnergyLetter = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G';
export type Status = 'active' | 'vendue' | 'sous compromis' | 'archivée' | 'retirée';

export interface Property {
  /** Ground-truth label shared by every site copy of the property. */
  id: string;
  /** Creation order in the run; derives stable photo hashes. */
  serial: number;
  kind: PropertyKind;
  houseStyle: HouseStyle | null;
  transaction: Transaction;
  furnished: boolean;
  commune: Commune;
  lat: number | null;
  lon: number | null;
  /** Living surface in m², with the decimals of a Carrez measurement when there are some. */
  surface: number | null;
  landSurface: number | null;
  livingRoomSurface: number | null;
  rooms: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  showerRooms: number | null;
  toilets: number | null;
  /** 0 is the ground floor. */
  floor: number | null;
  buildingFloors: number | null;
  kitchen: string | null;
  yearBuilt: number | null;
  elevator: boolean | null;
  parking: boolean | null;
  parkingInterior: boolean | null;
  parkingExterior: boolean | null;
  cellar: boolean | null;
  garden: boolean | null;
  exclusive: boolean | null;
  /** Selling points mentioned in the description (keys of the vocabulary). */
  features: string[];
  dpe: EnergyLetter | null;
  dpeValue: number | null;
  ges: EnergyLetter | null;
  gesValue: number | null;
  /** Sale price in euros, or monthly rent charges included. */
  price: number;
  seller: Seller;
  photoCount: number;
  /** First publication, epoch milliseconds. */
  publishedAt: number;
  status: Status;
  /** The seller's own title (sites that let the seller write it use this one). */
  title: string;
  /** The seller's description, sentence by sentence. */
  sentences: string[];
}
