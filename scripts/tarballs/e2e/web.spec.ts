// The web app built from the installed tarballs (web/main.js), in Debian's Chromium: the MSW worker of the
// installed
// @surecall/mocks answers in the page, the installed client sends to it, and the installed panel shows the
// agent.
import { expect, test } from '@playwright/test';

test('the built web app runs the mock agent in the page, sends to it and shows the panel', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.locator('#answer')).toHaveText('answered');
  await expect(page.getByText('surecall mock agent').first()).toBeVisible();
});
