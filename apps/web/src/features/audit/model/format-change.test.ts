import { describe, expect, it } from 'vitest';
import { formatChange } from './format-change';

describe('formatChange', () => {
  it('shows a flat record as key: value lines', () => {
    expect(formatChange({ status: 'NEW', test: true, amount: 150000 })).toBe('status: NEW\ntest: true\namount: 150000');
  });
  it('shows nested values and non-records as JSON, and nothing as null', () => {
    expect(formatChange({ permissions: ['audit.read'] })).toBe('permissions: [\n  "audit.read"\n]');
    expect(formatChange([1, 2])).toBe('[\n  1,\n  2\n]');
    expect(formatChange('renamed')).toBe('renamed');
    expect(formatChange(null)).toBeNull();
    expect(formatChange(undefined)).toBeNull();
  });
});
