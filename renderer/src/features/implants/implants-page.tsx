import { Alert, Button, Group, ScrollArea, Stack, Tabs, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useCheckedForm } from '../../components/checked-form';
import { DecimalInput } from '../../components/decimal-input';
import type { DecimalResult, DecimalRule } from '../../components/decimal';
import type { ImplantSizeView } from '../../../../preload/contract';
import { ErrorAlert } from '../../components/error-alert';
import { ImplantTable, PagedTable, useMm } from './implant-table';
import type { SizeQuery } from './implant-queries';
import { useImplantBrands, useImplantModels, useImplantSearch, useImplantSize } from './implant-queries';
import { Loading } from '../../components/loading';

function BrandsPanel() {
  const { t } = useTranslation();
  const brands = useImplantBrands();
  const [brand, setBrand] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const models = useImplantModels(brand, offset);
  return (
    <Group align="flex-start" wrap="nowrap" gap="lg">
      <Stack gap={4} w={260} style={{ flex: 'none' }}>
        <Text fw={600} size="sm" id="implant-brands-title">
          {t('implants.brandsTitle')}
        </Text>
        {brands.isPending && <Loading size="sm" />}
        <ErrorAlert error={brands.error} />
        <ScrollArea h="calc(100vh - 280px)" type="auto" offsetScrollbars>
          <ul
            aria-labelledby="implant-brands-title"
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
            data-testid="implant-brands"
          >
            {brands.data?.brands.map((b) => (
              <li key={b.brand}>
                <UnstyledButton
                  className="implant-brand"
                  aria-pressed={brand === b.brand}
                  onClick={() => {
                    setBrand(b.brand);
                    setOffset(0);
                  }}
                  data-testid="implant-brand"
                >
                  <span>{b.brand}</span>
                  <span className="implant-brand-count">{t('implants.models', { count: b.count })}</span>
                </UnstyledButton>
              </li>
            ))}
          </ul>
        </ScrollArea>
      </Stack>
      <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
        {!brand && <Text c="dimmed">{t('implants.pickBrand')}</Text>}
        {brand && models.isPending && <Loading />}
        <ErrorAlert error={models.error} />
        {brand && models.data && (
          <PagedTable
            page={models.data}
            caption={t('implants.modelsOf', { brand, count: models.data.total })}
            testId="implant-models"
            hideBrand
            offset={offset}
            onOffset={setOffset}
          />
        )}
      </Stack>
    </Group>
  );
}

function SearchPanel() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [query, setQuery] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const results = useImplantSearch(query, offset);
  return (
    <Stack gap="sm">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const q = text.trim();
          if (q) {
            setQuery(q);
            setOffset(0);
          }
        }}
      >
        <Group align="flex-end">
          <TextInput
            label={t('implants.searchLabel')}
            description={t('implants.searchHelp')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={420}
            data-testid="implant-search"
          />
          <Button type="submit" disabled={!text.trim()} data-testid="implant-search-go">
            {t('implants.searchButton')}
          </Button>
        </Group>
      </form>
      {query && results.isPending && <Loading />}
      <ErrorAlert error={results.error} />
      {query && results.data && results.data.implants.length === 0 && (
        <Text c="dimmed">{t('implants.noResults', { query })}</Text>
      )}
      {query && results.data && results.data.implants.length > 0 && (
        <PagedTable
          page={results.data}
          caption={t('implants.searchResults', { query, count: results.data.total })}
          testId="implant-search-results"
          offset={offset}
          onOffset={setOffset}
        />
      )}
    </Stack>
  );
}

/** Implant sizes the catalog can hold: 0.1 to 100 mm, to the hundredth. */
const MM: DecimalRule = { min: 0.1, max: 100, decimals: 2 };
const valueOf = (r: DecimalResult): number | null => (r.kind === 'ok' ? r.value : null);

/** The implants of the size asked, then those close to it, each list with its own caption. */
function SizeResults({
  size,
  data,
  asked,
  offset,
  onOffset,
}: {
  size: SizeQuery;
  data: ImplantSizeView;
  asked: string;
  offset: number;
  onOffset: (offset: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      {data.implants.length > 0 ? (
        <PagedTable
          page={data}
          caption={t('implants.exactTitle', { asked, count: data.total })}
          testId="implant-exact"
          offset={offset}
          onOffset={onOffset}
        />
      ) : (
        <Text data-testid="implant-no-exact">{t('implants.noExact', { asked })}</Text>
      )}
      {data.near_matches.length > 0 ? (
        <section data-testid="implant-near">
          <Alert
            color="orange"
            variant="light"
            p="xs"
            mb="xs"
            title={t('implants.nearTitle', { count: data.near_matches.length })}
          >
            <Text size="sm">{t('implants.nearExplain')}</Text>
          </Alert>
          <ImplantTable
            implants={data.near_matches}
            caption={t('implants.nearCaption', { asked })}
            near={size}
            testId="implant-near-table"
          />
        </section>
      ) : (
        <Text c="dimmed" size="sm">
          {t('implants.noNear')}
        </Text>
      )}
    </Stack>
  );
}

type SizeValues = { length: DecimalResult; diameter: DecimalResult };

/** A size to look up: at least one of the two, and neither refused; the message is a key under `implants.`. */
const sizeSchema = z
  .object({ length: z.custom<DecimalResult>(), diameter: z.custom<DecimalResult>() })
  .refine(
    ({ length, diameter }) =>
      length.kind !== 'bad' && diameter.kind !== 'bad' && (length.kind === 'ok' || diameter.kind === 'ok'),
    { message: 'sizeProblem', path: ['size'] },
  );

function SizePanel() {
  const { t } = useTranslation();
  const mm = useMm();
  // 4,1 and 4.1 are the same diameter in every language (components/decimal.ts).
  // The problem stays until the next look-up (each field tells its own refusal at once).
  const form = useCheckedForm<SizeValues>(
    sizeSchema,
    { length: { kind: 'empty' }, diameter: { kind: 'empty' } },
    (code) => `implants.${code}`,
  );
  const [size, setSize] = useState<SizeQuery | null>(null);
  const [offset, setOffset] = useState(0);
  const problem = form.getInputProps('size').error as string | undefined;
  const results = useImplantSize(size, offset);
  const asked = size
    ? [
        size.diameter !== undefined ? t('implants.askedDiameter', { mm: mm(size.diameter) }) : null,
        size.length !== undefined ? t('implants.askedLength', { mm: mm(size.length) }) : null,
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  return (
    <Stack gap="sm">
      <form
        noValidate
        onSubmit={form.onSubmit(({ length, diameter }) => {
          const l = valueOf(length);
          const d = valueOf(diameter);
          setSize({ ...(l !== null ? { length: l } : {}), ...(d !== null ? { diameter: d } : {}) });
          setOffset(0);
        })}
      >
        <Group align="flex-start">
          <DecimalInput
            label={t('implants.diameter')}
            value={valueOf(form.values.diameter)}
            onChange={(r) => form.setFieldValue('diameter', r)}
            rule={MM}
            unit="mm"
            w={180}
            testId="implant-diameter"
          />
          <DecimalInput
            label={t('implants.length')}
            value={valueOf(form.values.length)}
            onChange={(r) => form.setFieldValue('length', r)}
            rule={MM}
            unit="mm"
            w={180}
            testId="implant-length"
          />
          <Button type="submit" mt={25} data-testid="implant-size-go">
            {t('implants.lookUp')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed" mt={4}>
          {t('implants.sizeHelp')}
        </Text>
        {problem && (
          <Text size="sm" c="red.9" role="alert" mt={4}>
            {problem}
          </Text>
        )}
      </form>
      {size && results.isPending && <Loading />}
      <ErrorAlert error={results.error} />
      {size && results.data && (
        <SizeResults size={size} data={results.data} asked={asked} offset={offset} onOffset={setOffset} />
      )}
    </Stack>
  );
}

/** The implant catalog: browse by brand, search by name, or find implants by size. */
export function ImplantsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('size');
  return (
    <Stack gap="sm">
      <div>
        <Title order={2}>{t('implants.title')}</Title>
        <Text c="dimmed" size="sm">
          {t('implants.intro')}
        </Text>
      </div>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="size" data-testid="implants-tab-size">
            {t('implants.tabSize')}
          </Tabs.Tab>
          <Tabs.Tab value="brands" data-testid="implants-tab-brands">
            {t('implants.tabBrands')}
          </Tabs.Tab>
          <Tabs.Tab value="search" data-testid="implants-tab-search">
            {t('implants.tabSearch')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="size" pt="sm">
          <SizePanel />
        </Tabs.Panel>
        <Tabs.Panel value="brands" pt="sm">
          <BrandsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="search" pt="sm">
          <SearchPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
