import { useEffect, useState } from 'react';
import { copyText } from '../lib/clipboard';
import { announce } from '../lib/announce';
import { t } from '../i18n';

type Props = { value: string; what: string };

/** Copy → Copied; the hidden part of the name says what is copied. */
export function CopyButton({ value, what }: Props) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const id = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(id);
  }, [copied]);

  async function onClick() {
    if (await copyText(value)) {
      setCopied(true);
      announce(`${t('form.button.copied')}: ${what}`);
    }
  }

  return (
    <button type="button" className={`pf-copy${copied ? ' is-copied' : ''}`} onClick={onClick}>
      {copied ? t('form.button.copied') : t('form.button.copy')}
      <span className="pf-sr-only"> {what}</span>
    </button>
  );
}
