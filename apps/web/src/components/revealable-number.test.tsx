import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api';
import { RevealableNumber, revealErrorMessage } from './revealable-number';

const render = (canReveal: boolean, what?: string) =>
  renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <RevealableNumber
          masked="411111******1111"
          canReveal={canReveal}
          reveal={() => Promise.reject(new Error('not asked while rendering'))}
          what={what}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );

describe('RevealableNumber', () => {
  it('shows the masked number, and the control only to those who may reveal', () => {
    expect(render(true)).toContain('411111******1111');
    expect(render(true)).toMatch(/<button[^>]*aria-label="Show full number"[^>]*>/);
    expect(render(false)).toContain('411111******1111');
    expect(render(false)).not.toContain('<button');
  });

  it('names the number in the control when several share a screen', () => {
    expect(render(true, 'CARD 411111******1111')).toContain('aria-label="Show full number of CARD 411111******1111"');
  });
});

describe('revealErrorMessage', () => {
  it('past the hourly limit says why nothing is shown; other failures read as usual', () => {
    expect(revealErrorMessage(new ApiError(429, 'TOO_MANY_REQUESTS', 'At most 30 an hour'))).toMatch(/in an hour/);
    expect(revealErrorMessage(new ApiError(403, 'FORBIDDEN', 'Your role does not allow this.'))).toBe(
      'Your role does not allow this.',
    );
    expect(revealErrorMessage(new ApiError(500, 'INTERNAL', 'boom'))).toBe('Could not show the full number');
  });
});
