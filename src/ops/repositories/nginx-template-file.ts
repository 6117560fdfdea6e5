/** The nginx template as the repository holds it (rendered by ../nginx-template.ts). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NGINX_TEMPLATE_PATH } from '../nginx-template.js';

export async function readNginxTemplate(root: string): Promise<string> {
  return readFile(join(root, NGINX_TEMPLATE_PATH), 'utf8');
}
