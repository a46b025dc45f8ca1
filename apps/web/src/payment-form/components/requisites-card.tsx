import { Fragment, type ReactNode } from 'react';
import { formatRequisitePhone } from '@paydesk/contracts/phone';
import { Flag, MethodLogo } from './method-logo';
import { CopyButton } from './copy-button';
import { groupCardNumber } from '@paydesk/contracts/card';
import { language, t } from '../i18n';

type Props = {
  methodCode: string;
  methodName: string;
  amountText: string;
  amountCopy: string;
  /** read-only shows the requisites; editable holds the single input given as children */
  mode?: 'readonly' | 'editable';
  cardNumber?: string;
  type?: 'card' | 'by_mobile';
  countryCode?: string;
  bankName?: string | null;
  owner?: string | null;
  children?: ReactNode;
};

function displayNumber(value: string, type: Props['type'], countryCode: string | undefined): ReactNode {
  if (type === 'by_mobile' && countryCode) {
    try {
      return formatRequisitePhone(value);
    } catch {
      return value;
    }
  }
  // each group of four is unbreakable, so a narrow screen wraps between groups, never inside one
  const groups = groupCardNumber(value).split(' ');
  return groups.map((g, i) => (
    <Fragment key={i}>
      {i > 0 ? ' ' : null}
      <span className="pf-card-group">{g}</span>
    </Fragment>
  ));
}

/** The payment requisites card: where and how much to pay. */
export function RequisitesCard(props: Props) {
  const { mode = 'readonly', type = 'card', cardNumber = '' } = props;
  const isPhone = type === 'by_mobile';
  const numberLabel = isPhone ? t('form.label.phone_number') : t('form.label.card_number');
  return (
    <section className="pf-requisites" aria-label={t('form.label.requisites')}>
      <div className="pf-requisites-top">
        <MethodLogo code={props.methodCode} name={props.methodName} />
        <span className="pf-requisites-method">{props.methodName}</span>
        {props.countryCode ? <Flag countryCode={props.countryCode} lang={language()} /> : null}
      </div>
      {props.bankName ? (
        <p className="pf-requisites-bank">
          {props.bankName} <span aria-hidden="true">→</span>
        </p>
      ) : null}
      {mode === 'editable' ? (
        <div className="pf-requisites-input">{props.children}</div>
      ) : (
        <div className="pf-requisites-row">
          <div>
            <span className="pf-requisites-label">{numberLabel}</span>
            <span className="pf-requisites-number" dir="ltr">
              {displayNumber(cardNumber, type, props.countryCode)}
            </span>
          </div>
          <CopyButton value={isPhone ? cardNumber.trim() : cardNumber.replace(/\s/g, '')} what={numberLabel} />
        </div>
      )}
      {props.owner ? (
        <p className="pf-requisites-owner">
          <span className="pf-requisites-label">{t('form.label.owner')}</span> {props.owner}
        </p>
      ) : null}
      <div className="pf-requisites-row">
        <div>
          <span className="pf-requisites-label">{t('form.label.amount')}</span>
          <span className="pf-requisites-amount">{props.amountText}</span>
        </div>
        <CopyButton value={props.amountCopy} what={t('form.label.amount')} />
      </div>
    </section>
  );
}
