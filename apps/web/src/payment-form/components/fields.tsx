import { forwardRef, useId, type ChangeEvent } from 'react';
import { editRuPhone, RU_PHONE_MASK } from '@paydesk/contracts/phone';
import { cardDigits, groupCardNumber } from '@paydesk/contracts/card';
import { t } from '../i18n';

type FieldProps = { value: string; onChange: (v: string) => void; error?: string | null };

/** Withdrawal card input: digits only, grouped in fours while typing. */
export const CardField = forwardRef<HTMLInputElement, FieldProps>(function CardField({ value, onChange, error }, ref) {
  const id = useId();
  return (
    <div className="pf-field">
      <label htmlFor={id}>{t('form.label.card_number')}</label>
      <input
        ref={ref}
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="0000 0000 0000 0000"
        maxLength={23}
        dir="ltr"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(groupCardNumber(cardDigits(e.target.value)))}
      />
      {error ? (
        <p id={`${id}-error`} className="pf-error">
          {error}
        </p>
      ) : null}
    </div>
  );
});

/** Phone input: the Russian mask +7 (999) 999-99-99 for RUB, digits with a leading plus otherwise. */
export const PhoneField = forwardRef<HTMLInputElement, FieldProps & { russian: boolean }>(function PhoneField(
  { value, onChange, error, russian },
  ref,
) {
  const id = useId();
  return (
    <div className="pf-field">
      <label htmlFor={id}>{t('form.label.phone_number')}</label>
      <input
        ref={ref}
        id={id}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder={russian ? RU_PHONE_MASK : '+'}
        dir="ltr"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          const input = e.currentTarget;
          if (!russian) {
            onChange(
              input.value
                .replace(/[^\d+]/g, '')
                .replace(/(?!^)\+/g, '')
                .slice(0, 16),
            );
            return;
          }
          const forward = (e.nativeEvent as InputEvent).inputType === 'deleteContentForward';
          const next = editRuPhone(value, input.value, input.selectionStart ?? input.value.length, forward);
          // the masked value and its caret go into the input now, before React compares it with the state:
          // the caret stays where the customer edits instead of jumping to the end
          input.value = next.value;
          if (document.activeElement === input) input.setSelectionRange(next.caret, next.caret);
          onChange(next.value);
        }}
      />
      {error ? (
        <p id={`${id}-error`} className="pf-error">
          {error}
        </p>
      ) : null}
    </div>
  );
});
