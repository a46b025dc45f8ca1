/**
 * Hands a small file made in the browser (the two-factor recovery codes) to the browser's download. Server exports
 * (CSV) are not read into the page: they download by navigation, see csv-download.ts.
 */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
