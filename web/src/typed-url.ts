/**
 * What a person types into the shorten form, as the URL to send: `example.com/page` (or `//example.com/page`)
 * gets `https://`, as a browser's address bar would. Anything that already has a scheme (`http:`, `ftp:`,
 * `mailto:`) is left as typed, for the API to accept or refuse in its own words: the API itself stays strict.
 * `localhost:3000/x` and `example.com:8080/x` are a host and a port, not a scheme.
 */
export function withScheme(typed: string): string {
  const text = typed.trim();
  if (text === '') return text;
  if (text.startsWith('//')) return `https:${text}`;
  const scheme = /^([a-z][a-z0-9+.-]*):(.?)/i.exec(text);
  if (scheme && !scheme[1]!.includes('.') && !/\d/.test(scheme[2]!)) return text;
  return `https://${text}`;
}
