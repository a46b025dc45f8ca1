import { describe, expect, it } from 'vitest';
import { createFirstPaintHolds } from './first-paint';

describe('createFirstPaintHolds', () => {
  it('shows nothing before it is armed, then as soon as every hold is ready', () => {
    let shown = 0;
    const holds = createFirstPaintHolds(() => shown++);
    // the parts' layout effects run before the holder's: the first part being ready is not enough
    holds.set('list', true);
    holds.set('tiles', false);
    expect(shown).toBe(0);
    holds.arm();
    expect(shown).toBe(0);
    holds.set('tiles', true);
    expect(shown).toBe(1);
  });

  it('shows at once when armed with no hold, or with every hold ready', () => {
    let shown = 0;
    createFirstPaintHolds(() => shown++).arm();
    expect(shown).toBe(1);
    const holds = createFirstPaintHolds(() => shown++);
    holds.set('list', true);
    holds.arm();
    expect(shown).toBe(2);
  });

  it('a part that leaves stops holding, and the screen is shown once only', () => {
    let shown = 0;
    const holds = createFirstPaintHolds(() => shown++);
    holds.set('list', false);
    holds.set('views', false);
    holds.arm();
    holds.remove('views');
    expect(shown).toBe(0);
    holds.set('list', true);
    expect(shown).toBe(1);
    holds.set('list', false);
    holds.set('list', true);
    holds.remove('list');
    expect(shown).toBe(1);
  });
});
