/**
 * Go's text/tabwriter as kubectl describe uses it (minwidth 0, padding 2, padchar ' ', no flags): a line's
 * tab-terminated cells form columns; a column block is a run of consecutive lines that have a cell in that
 * column, and every cell of a block is padded to the block's widest cell + 2. The text after a line's last tab
 * is not a column cell. Widths count characters (Go counts UTF-8 runes; the same for what describe prints).
 */
const PADDING = 2;

export function tabwrite(text: string): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[][] = lines.map(() => []);

  const format = (line0: number, line1: number, column: number) => {
    let i = line0;
    while (i < line1) {
      if (column >= lines[i]!.length - 1) {
        i++;
        continue;
      }
      let j = i;
      let width = 0;
      while (j < line1 && column < lines[j]!.length - 1) {
        width = Math.max(width, [...lines[j]![column]!].length + PADDING);
        j++;
      }
      for (let k = i; k < j; k++) widths[k]![column] = width;
      format(i, j, column + 1);
      i = j;
    }
  };
  format(0, lines.length, 0);

  return lines
    .map((cells, i) => cells.map((c, col) => (col < cells.length - 1 ? c + ' '.repeat(Math.max(0, widths[i]![col]! - [...c].length)) : c)).join(''))
    .join('\n');
}
