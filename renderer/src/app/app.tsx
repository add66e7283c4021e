import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createHashRouter, RouterProvider } from 'react-router';
import type { Transport } from '../transport';
import { applyLanguage, effectiveLanguage } from './i18n';
import { useAppInfo, useEventBinding, useSettings } from './queries';
import { routes } from './routes';
import { cssVariablesResolver, theme } from './theme';
import { TransportProvider } from './transport-context';

/**
 * Follows the language setting; for `system`, the core's idea of the OS language, so that the
 * window and what the core writes (exam names, notifications) speak the same language.
 */
function LanguageSync() {
  const settings = useSettings().data;
  const systemLanguage = useAppInfo().data?.system_language;
  useEffect(() => {
    if (settings) applyLanguage(effectiveLanguage(settings.language, systemLanguage ?? navigator.language));
  }, [settings, systemLanguage]);
  return null;
}

function EventBinding() {
  useEventBinding();
  return null;
}

/** The window's root: theme, service data cache, transport, and the routes. */
export function App({ transport }: { transport: Transport }) {
  // Hash routes: both the app:// protocol and the bridge serve one index.html.
  const [router] = useState(() => createHashRouter(routes));
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 },
          mutations: { retry: 0 },
        },
      }),
  );
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <TransportProvider transport={transport}>
          <LanguageSync />
          <EventBinding />
          <RouterProvider router={router} />
        </TransportProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
