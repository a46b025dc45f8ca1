import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ConfirmedActionButton } from './action-button';

const mutation = { isPending: false, mutate: () => undefined } as unknown as UseMutationResult<unknown, Error, void>;

const render = (refusal: string | null) =>
  renderToStaticMarkup(
    <MantineProvider>
      <ConfirmedActionButton
        label="Retry"
        title="Invoice retry"
        message="Are you sure you want to retry?"
        mutation={mutation}
        success="Retry started"
        failure="Failed to retry"
        refusal={refusal}
      />
    </MantineProvider>,
  );

describe('ConfirmedActionButton', () => {
  it('an action the server would refuse is disabled and says why (still focusable, so the reason can be read)', () => {
    const reason = 'Payout attempt 1 is still with the provider; retry only after it is declined';
    const html = render(reason);
    const button = /<button[^>]*>/.exec(html)![0];
    expect(button).toContain('data-disabled="true"');
    expect(button).toContain('aria-disabled="true"');
    expect(button).not.toMatch(/\sdisabled=""/);
    const describedBy = /aria-describedby="([^"]+)"/.exec(button)![1];
    expect(html).toContain(`id="${describedBy}"`);
    expect(html).toContain(reason);
  });

  it('an action the server takes is a plain button', () => {
    const button = /<button[^>]*>/.exec(render(null))![0];
    expect(button).not.toContain('aria-disabled');
    expect(button).not.toContain('data-disabled');
  });
});
