/** The one naming rule of the TS API: drop `sparse_`, camelCase the rest (`sparse_tensor_to_dense` → `tensorToDense`). */
export function apiNameOf(opId: string): string {
  return camelCase(opId.replace(/^sparse_/, ''));
}

export function camelCase(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function pascalCase(snake: string): string {
  const c = camelCase(snake);
  return c.charAt(0).toUpperCase() + c.slice(1);
}
