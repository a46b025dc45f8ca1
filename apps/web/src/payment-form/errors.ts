import type { ErrorCode } from '@paydesk/contracts/errors';
import en from './locales/en';
import { t } from './i18n';

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(en.form.error, code);

/**
 * What the customer reads for an API error, in the form's language. The server's message is English
 * for operators and logs; the code is what the form translates. Transport failures and codes this
 * build does not know read as the generic failure text.
 */
export function errorText(code: string | undefined): string {
  return code && isErrorCode(code) ? t(`form.error.${code}`) : t('form.text.fail');
}
