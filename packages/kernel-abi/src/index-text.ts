/** An index row as text, `[1,2]`. */
export function indexText(indices: ArrayLike<number>, i: number, rank: number): string {
  const row: number[] = [];
  for (let d = 0; d < rank; d++) row.push(indices[i * rank + d]);
  return `[${row.join(',')}]`;
}
