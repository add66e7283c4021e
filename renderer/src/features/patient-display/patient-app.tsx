import { MantineProvider } from '@mantine/core';
import { cssVariablesResolver, theme } from '../../app/theme';
import { PatientPage } from './patient-page';
import type { PatientTransport } from './patient-transport';

/**
 * The patient display's root: no navigation, no service data, no operator screens; only the
 * consent session's own methods are reachable from here.
 */
export function PatientApp({ transport }: { transport: PatientTransport }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <PatientPage transport={transport} />
    </MantineProvider>
  );
}
