import { describe, expect, it } from 'vitest';
import { durationText, visibleNotificationKinds } from './notifications';
import { PRESET_ROLES, type PresetRoleCode } from './permissions';

const kindsOf = (role: PresetRoleCode) =>
  visibleNotificationKinds(PRESET_ROLES[role].permissions, PRESET_ROLES[role].scope).sort();

describe('visibleNotificationKinds', () => {
  it('gives each preset role the alerts about what it already sees', () => {
    const desk = ['ACCOUNT_PAUSED', 'CONTRADICTION', 'PAYOUT_STUCK', 'UNMATCHED_MONEY'];
    const merchant = ['CALLBACK_FAILED', 'LOW_SUCCESS_RATE'];
    // APPROVAL: their own approval requests, for whoever may make one (an action two-person control may hold)
    for (const role of ['platform_admin', 'platform_operator'] as const) {
      expect(kindsOf(role), role).toEqual([...merchant, ...desk, 'APPROVAL'].sort());
    }
    expect(kindsOf('platform_viewer')).toEqual([...merchant, ...desk].sort());
    expect(kindsOf('merchant_owner')).toEqual([...merchant, 'APPROVAL'].sort());
    expect(kindsOf('merchant_developer')).toEqual([...merchant, 'APPROVAL'].sort());
    expect(kindsOf('merchant_support')).toEqual(['CALLBACK_FAILED']);
    expect(kindsOf('merchant_finance')).toEqual([]);
    expect(kindsOf('merchant_viewer')).toEqual([]);
  });

  it('never gives a merchant user the desk, whatever its role lists; platform staff need merchant.rw.all for merchants', () => {
    expect(visibleNotificationKinds(['exceptions.read', 'merchant.callback.read'], 'merchant')).toEqual([
      'CALLBACK_FAILED',
    ]);
    expect(visibleNotificationKinds(['data.terminal.statistic', 'merchant.callback.read'], 'platform')).toEqual([]);
    expect(visibleNotificationKinds(['exceptions.read'], 'platform')).toEqual([
      'UNMATCHED_MONEY',
      'PAYOUT_STUCK',
      'CONTRADICTION',
      'ACCOUNT_PAUSED',
    ]);
  });
});

describe('durationText', () => {
  it('says a duration as a person does', () => {
    expect(durationText(-5)).toBe('0 s');
    expect(durationText(45_000)).toBe('45 s');
    expect(durationText(12 * 60_000 + 59_000)).toBe('12 min');
    expect(durationText(61 * 60_000)).toBe('1 h 1 min');
    expect(durationText(3 * 3_600_000)).toBe('3 h');
    expect(durationText(52 * 3_600_000)).toBe('2 d 4 h');
    expect(durationText(48 * 3_600_000)).toBe('2 d');
  });
});
