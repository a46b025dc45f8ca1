/** Styled initials per payment method: no images to download. */
const LOGOS: Record<string, { text: string; className: string }> = {
  HUMOUZS: { text: 'HUMO', className: 'is-humo' },
  CARDUZS: { text: 'UZS', className: 'is-uzcard' },
  SBERRUB: { text: 'SB', className: 'is-sber' },
  SBERRUB_X: { text: 'SB', className: 'is-sber' },
  TCSBRUB: { text: 'T', className: 'is-tinkoff' },
  TSCBRUB_X: { text: 'T', className: 'is-tinkoff' },
  SBPRUB: { text: 'SBP', className: 'is-sbp' },
};

export function MethodLogo({ code, name }: { code: string; name: string }) {
  const logo = LOGOS[code] ?? { text: name.slice(0, 2).toUpperCase(), className: 'is-other' };
  return (
    <span className={`pf-logo ${logo.className}`} aria-hidden="true">
      {logo.text}
    </span>
  );
}

/** Country flag emoji from an ISO 3166 alpha-2 code, named for screen readers. */
export function Flag({ countryCode, lang }: { countryCode: string; lang: string }) {
  const cc = countryCode.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(cc)) return null;
  const emoji = String.fromCodePoint(...[...cc].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
  let name = cc;
  try {
    name = new Intl.DisplayNames([lang], { type: 'region' }).of(cc) ?? cc;
  } catch {
    // older engines: the code itself names the country
  }
  return (
    <span className="pf-flag" role="img" aria-label={name} title={name}>
      {emoji}
    </span>
  );
}
