/** Text a program printed, without terminal colour codes (a CI environment may turn them on whatever NO_COLOR says). */
export function withoutColours(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
