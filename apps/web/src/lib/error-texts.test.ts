import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@paydesk/contracts/errors';
import { ApiError, actionErrorMessage } from './api';
import { ERROR_TEXTS, errorText } from './error-texts';

describe('error texts', () => {
  it('every code of the contracts has words', () => {
    for (const code of ERROR_CODES) expect(ERROR_TEXTS[code]).toMatch(/^[A-Z].{10,}/);
  });

  it('a schema complaint about a request the app built is not shown as it is', () => {
    const e = new ApiError(400, 'VALIDATION_ERROR', 'Invalid params: id: Invalid UUID', { id: 'Invalid UUID' });
    expect(e.message).toBe(ERROR_TEXTS.VALIDATION_ERROR);
    expect(e.serverMessage).toBe('Invalid params: id: Invalid UUID');
  });

  it('a field message written for people is shown', () => {
    const fields = { reason: 'Reason must be at least 3 characters long' };
    expect(errorText('VALIDATION_ERROR', 'Invalid body: reason: …', fields)).toBe(fields.reason);
  });

  it("a service's refusal keeps its own sentence over its field hint", () => {
    const fields = { peopleAccountId: 'Choose an account of this currency' };
    expect(errorText('VALIDATION_ERROR', 'Account 9 takes another currency', fields)).toBe(
      'Account 9 takes another currency',
    );
  });

  it('a refusal that explains itself keeps the server words; technical texts do not', () => {
    expect(errorText('INSUFFICIENT_BALANCE', 'Settlement exceeds the available balance (1.00 UZS)')).toBe(
      'Settlement exceeds the available balance (1.00 UZS)',
    );
    expect(errorText('NOT_FOUND', 'Route GET /api/v1/nope not found')).toBe(ERROR_TEXTS.NOT_FOUND);
    expect(errorText('INTERNAL', 'Internal server error')).toBe(ERROR_TEXTS.INTERNAL);
  });

  it("an action's own text stands in for a server fault", () => {
    expect(actionErrorMessage(new ApiError(500, 'INTERNAL', 'boom'), 'Could not save the role')).toBe(
      'Could not save the role',
    );
    expect(actionErrorMessage(new ApiError(0, 'NETWORK_ERROR', 'fetch failed'), 'Could not save')).toBe(
      ERROR_TEXTS.NETWORK_ERROR,
    );
  });
});
