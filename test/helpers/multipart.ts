/** A multipart/form-data body for app.inject (files and fields, in order). */
export interface FormPart {
  name: string;
  value: string | Uint8Array;
  filename?: string;
  type?: string;
}

export function multipartBody(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      p.filename !== undefined
        ? `form-data; name="${p.name}"; filename="${p.filename}"`
        : `form-data; name="${p.name}"`;
    const type = p.type ?? (p.filename !== undefined ? 'application/octet-stream' : 'text/plain');
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${type}\r\n\r\n`),
    );
    chunks.push(Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
