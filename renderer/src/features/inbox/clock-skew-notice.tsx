// The Inbox says when this computer's clock is minutes or more off the service's (read off the
// service's answers, with the account).
import { useAccount, useKeysStatus } from '../../app/queries';
import { ClockSkewAlert } from '../../components/clock-skew-alert';

export function ClockSkewNotice() {
  const active = useKeysStatus().data?.active;
  const skew = useAccount(active != null).data?.clock_skew_ms;
  return <ClockSkewAlert skewMs={skew} testId="clock-skew" />;
}
