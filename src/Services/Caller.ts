/**
 * A known key as a request sees it, never its text: `id` its name or `key_<8 hex>` of its digest (for people: two
 * keys may share it), `bucket` 128 bits of its digest (never shared), its own `limit` if its line gives one.
 */
export interface Caller {
  readonly id: string
  readonly bucket: string
  readonly limit?: number | undefined
}
