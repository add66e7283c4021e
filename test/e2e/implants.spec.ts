// The implant catalog, against the emulator: a size look-up shows the exact matches and the near
// matches (within 0.5 mm) marked as such, the same ones the service answers; brands lead to their
// models, page by page; a free-text search finds a product line. The flow runs in Spanish; each
// screen is checked in Spanish and in English.
import { api } from '../support/emulator/emulator';
import { expect, test } from '../support/e2e/app-fixtures';
import { checkScreenInBoth, onboard, switchLanguage, texts, type Lang } from '../support/e2e/ui-steps';

type Implant = { brand: string; product_line: string; length: number; diameter: number };

// The look-up runs in depth in Spanish; every screen is checked in Spanish and English, and typed
// decimals in both.
test.describe('implant catalog (es)', () => {
  const lang: Lang = 'es';
  test.use({ locale: 'es-ES' });
  // A flow in depth whose screens are each checked in two languages.
  test.setTimeout(180_000);

  test('a size look-up shows exact and near matches, brands page through their models, search finds a line', async ({
    page,
    app,
    emulator,
  }) => {
    const t = texts(lang);
    const key = emulator.info.keys.free;
    await page.goto(app.info.url);
    await onboard(page, t, key);
    await page.getByRole('link', { name: t('implants.nav') }).click();
    await expect(page.getByRole('heading', { name: t('implants.title') })).toBeVisible();

    await test.step('Searched 4.1 × 10.3 mm: near matches only', async () => {
      // 4.1 × 10.3 mm: nothing is exactly that long, so every hit is a near match.
      await page.getByTestId('implant-diameter').fill(lang === 'es' ? '4,1' : '4.1');
      await page.getByTestId('implant-length').fill(lang === 'es' ? '10,3' : '10.3');
      await page.getByTestId('implant-size-go').click();
      await expect(page.getByTestId('implant-no-exact')).toBeVisible();
      const near = page.getByTestId('implant-near-table').getByTestId('implant-row');
      await expect(near.first()).toBeVisible();
      const service = (await api(emulator.info, key, 'GET', '/implants?diameter=4.1&length=10.3&limit=25')).json as {
        implants: Implant[];
        near_matches: Implant[];
      };
      expect(service.implants).toEqual([]);
      expect(service.near_matches.length).toBeGreaterThan(0);
      await expect(near).toHaveCount(service.near_matches.length);
      await expect(near.first()).toContainText(service.near_matches[0]?.product_line ?? '?');
      await expect(near.first().getByTestId('near-badge')).toHaveText(t('implants.nearBadge'));
      await expect(page.getByTestId('implant-near')).toContainText(t('implants.nearExplain'));
    });

    await test.step('Searched 4.1 × 10: exact matches, near ones apart', async () => {
      // 4.1 × 10: exact matches, each listed, and the near ones apart and marked.
      await page.getByTestId('implant-length').fill('10');
      await page.getByTestId('implant-size-go').click();
      const exact = page.getByTestId('implant-exact').getByTestId('implant-row');
      const both = (await api(emulator.info, key, 'GET', '/implants?diameter=4.1&length=10&limit=25')).json as {
        implants: Implant[];
        near_matches: Implant[];
        total: number;
      };
      expect(both.total).toBeGreaterThan(0);
      await expect(exact).toHaveCount(Math.min(25, both.total));
      await expect(exact.getByTestId('near-badge')).toHaveCount(0);
      await expect(page.getByTestId('implant-near-table').getByTestId('near-badge')).toHaveCount(
        both.near_matches.length,
      );
      await checkScreenInBoth(page, 'implants-size');
    });

    await test.step('4.1 and 4,1 find the same implants; an impossible size is refused', async () => {
      // The numeric keypad types a dot even on a Spanish keyboard: both marks mean 4.1 mm.
      const rows = page.getByTestId('implant-exact').getByTestId('implant-row');
      // In both languages: the window shows each language's decimal mark, and finds the same implants.
      for (const shown of ['es', 'en'] as const) {
        await switchLanguage(page, shown);
        const found: string[][] = [];
        for (const typed of ['4.1', '4,1']) {
          await page.getByTestId('implant-diameter').fill(typed);
          await page.getByTestId('implant-size-go').click();
          await expect(page.getByTestId('implant-exact')).toContainText(shown === 'es' ? '4,1' : '4.1');
          found.push(await rows.allTextContents());
        }
        expect(found[0]?.length).toBeGreaterThan(0);
        expect(found[1]).toEqual(found[0]);
      }
      await switchLanguage(page, lang);
      await page.getByTestId('implant-diameter').fill('410');
      await page.getByTestId('implant-size-go').click();
      await expect(page.getByText(t('implants.sizeProblem'))).toBeVisible();
      await expect(page.getByText(t('decimal.too_large', { max: '100', unit: 'mm' }))).toBeVisible();
      await checkScreenInBoth(page, 'implants-decimal-refused');
      await page.getByTestId('implant-diameter').fill(lang === 'es' ? '4,1' : '4.1');
    });

    await test.step('Brands with their counts → the models of one, with pages', async () => {
      // Brands with their counts → the models of one, with pages.
      await page.getByTestId('implants-tab-brands').click();
      const brands = (await api(emulator.info, key, 'GET', '/implants')).json['brands'] as {
        brand: string;
        count: number;
      }[];
      const big = [...brands].sort((a, b) => b.count - a.count)[0];
      if (!big) throw new Error('no brands');
      expect(big.count).toBeGreaterThan(25);
      const brandButton = page.getByTestId('implant-brand').filter({ hasText: big.brand });
      await expect(brandButton).toContainText(t('implants.models_other', { count: big.count }));
      await brandButton.click();
      const models = page.getByTestId('implant-models');
      await expect(models.getByTestId('implant-row')).toHaveCount(25);
      await expect(page.getByText(t('implants.range', { from: 1, to: 25, total: big.count }))).toBeVisible();
      await checkScreenInBoth(page, 'implants-brands');
      await page.getByRole('button', { name: t('implants.pager.next') }).click();
      await expect(
        page.getByText(t('implants.range', { from: 26, to: Math.min(50, big.count), total: big.count })),
      ).toBeVisible();
      const second = (
        await api(emulator.info, key, 'GET', `/implants?brand=${encodeURIComponent(big.brand)}&limit=25&offset=25`)
      ).json['implants'] as Implant[];
      await expect(models.getByTestId('implant-row')).toHaveCount(second.length);
      await expect(models.getByTestId('implant-row').first()).toContainText(second[0]?.product_line ?? '?');
    });

    await test.step('Free text', async () => {
      // Free text.
      await page.getByTestId('implants-tab-search').click();
      await page.getByTestId('implant-search').fill('BLX');
      await page.getByTestId('implant-search-go').click();
      const results = page.getByTestId('implant-search-results').getByTestId('implant-row');
      await expect(results.first()).toContainText('BLX');
      await checkScreenInBoth(page, 'implants-search');
    });
  });
});
