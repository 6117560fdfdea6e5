/** The own profile page's picture controls, used as a person would (player browser tests). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';

/** Chosen and shown (the server's JPEG), refused in words when it is not a picture, then removed. */
export async function pictureRoundTrip(page: Page, alt: string): Promise<void> {
  const png = await promisify(execFile)(
    'ffmpeg',
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x200',
      '-frames:v',
      '1',
      '-f',
      'image2',
      '-c:v',
      'png',
      '-',
    ],
    { encoding: 'buffer' },
  );
  const input = page.getByLabel('Change picture');
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png.stdout });
  await page.getByRole('img', { name: alt }).waitFor();
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await page.getByText('not a picture: send a PNG').waitFor();
  await page.getByRole('button', { name: 'Remove picture' }).click();
  await page.getByRole('img', { name: alt }).waitFor({ state: 'detached' });
}
