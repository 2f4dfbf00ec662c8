/** An index row as text, `[1,2]`, from a row-major index matrix of numbers or bigints. */
export function indexText(indices: ArrayLike<number | bigint>, i: number, rank: number): string {
  const row: (number | bigint)[] = [];
  for (let d = 0; d < rank; d++) row.push(indices[i * rank + d]);
  return `[${row.join(',')}]`;
}
