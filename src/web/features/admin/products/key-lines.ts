/** How many distinct keys a textarea holds (one per line, blanks and repeats dropped, as the server does). */
export function parseKeyLinesCount(text: string): number {
  return new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  ).size
}
