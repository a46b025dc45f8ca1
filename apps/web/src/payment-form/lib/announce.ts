/** Polite screen-reader announcements through the page's single live region. */
export function announce(text: string): void {
  const region = document.getElementById('pf-announcer');
  if (!region) return;
  // clearing first makes a repeated message be read again
  region.textContent = '';
  window.setTimeout(() => {
    region.textContent = text;
  }, 50);
}
