import { RU, UZ } from 'country-flag-icons/string/3x2';

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

/**
 * The countries of the payment methods (the requisites' country is their method's); importing only these
 * keeps every other flag out of the bundle. A method in a new country adds its flag here.
 */
const FLAGS: Record<string, string> = { RU, UZ };

/**
 * Country flag as an SVG image, named for screen readers. An emoji would need a colour-emoji font,
 * which many phones and Windows lack; a country without a flag here shows its code.
 */
export function Flag({ countryCode, lang }: { countryCode: string; lang: string }) {
  const cc = countryCode.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(cc)) return null;
  let name = cc;
  try {
    name = new Intl.DisplayNames([lang], { type: 'region' }).of(cc) ?? cc;
  } catch {
    // older engines: the code itself names the country
  }
  const svg = FLAGS[cc];
  if (!svg) {
    return (
      <span className="pf-flag is-code" role="img" aria-label={name} title={name}>
        {cc}
      </span>
    );
  }
  return (
    <img
      className="pf-flag"
      src={`data:image/svg+xml,${encodeURIComponent(svg)}`}
      alt={name}
      title={name}
      width={24}
      height={16}
    />
  );
}
