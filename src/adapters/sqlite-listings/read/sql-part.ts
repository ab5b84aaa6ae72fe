/** A piece of a WHERE clause with its bound parameters, as every SQL builder of the adapter returns it. */
export type Param = string | number;

export interface SqlPart {
  where: string[];
  params: Param[];
}
