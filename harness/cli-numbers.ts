/**
 * The value of a command-line flag that takes positive whole numbers separated by commas
 * (`--rates 2000,5000,10000`, `--fixed-seconds 60`), or an error that names the flag.
 */
export function positiveWholes(flag: string, text: string | undefined): number[] {
  const values = (text ?? '').split(',').map((part) => part.trim());
  if (values.some((value) => !/^[1-9]\d{0,8}$/.test(value)))
    throw new Error(`${flag} takes positive whole numbers separated by commas, e.g. ${flag} 2000,10000 (got "${text ?? ''}")`);
  return values.map(Number);
}
