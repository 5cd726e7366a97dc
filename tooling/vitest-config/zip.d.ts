/** One entry of a zip written byte by byte. */
export interface RawEntry {
  readonly name: string
  /** the bytes stored in the zip (already deflated when method is 8) */
  readonly data: Uint8Array
  readonly method?: 0 | 8
  /** declared uncompressed size (default: data.length) */
  readonly size?: number
  /** declared CRC-32 (default: 0) */
  readonly crc?: number
  readonly flags?: number
}
/** A zip of the entries `locals` (stored as given), with a central directory entry for each index of `central` (by default one per local entry, in order). */
export declare const rawZip: (locals: ReadonlyArray<RawEntry>, central?: ReadonlyArray<number>) => Uint8Array
