import { forwardRef, useId, useMemo, useState } from 'react';
import type { BankOption } from '@paydesk/contracts/payment-form';
import { filterBanks } from '../lib/banks';
import { t } from '../i18n';

type Props = {
  banks: readonly BankOption[];
  selected: BankOption | null;
  onSelect: (b: BankOption) => void;
  error?: string | null;
};

/** SBP bank choice: a search box over radio buttons. */
export const BankList = forwardRef<HTMLInputElement, Props>(function BankList(
  { banks, selected, onSelect, error },
  ref,
) {
  const id = useId();
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterBanks(banks, query), [banks, query]);
  return (
    <fieldset className="pf-banks" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{t('form.label.bank')}</legend>
      <label htmlFor={`${id}-search`} className="pf-sr-only">
        {t('form.label.bank_search')}
      </label>
      <input
        ref={ref}
        id={`${id}-search`}
        type="search"
        className="pf-banks-search"
        placeholder={t('form.label.bank_search')}
        autoComplete="off"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {shown.length === 0 ? (
        <p className="pf-banks-empty" role="status">
          {t('form.text.withdrawal_sbp.nothing_found')}
        </p>
      ) : (
        <ul className="pf-banks-list">
          {shown.map((b) => (
            <li key={b.id}>
              <label className={selected?.id === b.id ? 'is-selected' : undefined}>
                <input type="radio" name={`${id}-bank`} checked={selected?.id === b.id} onChange={() => onSelect(b)} />
                <span className="pf-bank-name">
                  {b.value}
                  {b.latinValue && b.latinValue !== b.value ? (
                    <span className="pf-bank-latin" lang="en">
                      {b.latinValue}
                    </span>
                  ) : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {selected && !shown.some((b) => b.id === selected.id) ? (
        <p className="pf-hint">{t('form.text.withdrawal_sbp.selected', { bank: selected.value })}</p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="pf-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
});
