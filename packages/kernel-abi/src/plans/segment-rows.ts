/** The output's rows: num_segments where given, else the last segment id + 1 (0 without ids). */
export function segmentRows(ids: ArrayLike<number | bigint>, numSegments: number | null | undefined): number {
  return numSegments ?? (ids.length === 0 ? 0 : Number(ids[ids.length - 1]) + 1);
}
