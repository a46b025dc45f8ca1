import { countdownParts, secondsLeft } from '@paydesk/contracts/countdown';
import { useSecondTick } from '../lib/use-now';
import { t } from '../i18n';

/** Time left until the server's expiry; red in the last minute (countdownParts decides). */
export function Countdown({ deadline }: { deadline: number }) {
  const now = useSecondTick(deadline);
  const p = countdownParts(secondsLeft(deadline, now));
  const text = p.showDays ? `${t('form.countdown.days', { count: p.days })} ${p.clock}` : p.clock;
  return (
    <p className={`pf-countdown${p.urgent ? ' is-urgent' : ''}`}>
      <span className="pf-countdown-label">{t('form.label.countdown')}</span>{' '}
      <span role="timer" className="pf-countdown-time">
        {text}
      </span>
    </p>
  );
}
