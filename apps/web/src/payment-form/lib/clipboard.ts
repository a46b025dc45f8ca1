/** Copies text; a failure or a missing clipboard is only a console warning. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('Clipboard is not available');
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    console.warn('Copy to clipboard failed', err);
    return false;
  }
}
