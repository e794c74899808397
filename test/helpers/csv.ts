/**
 * A small, strict RFC 4180 reader for the tests: records end in CRLF (a bare LF or CR outside
 * quotes is an error), quoted fields may hold commas, quotes (doubled) and line breaks, and a
 * quote anywhere else in a field is an error. Independent of the writer it checks.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`CSV: ${why} at offset ${i} (record ${records.length + 1})`);
  };
  while (i < text.length) {
    if (text[i] === '"' && field === '') {
      i++;
      for (;;) {
        if (i >= text.length) fail('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      if (i < text.length && text[i] !== ',' && text[i] !== '\r') fail('text after a closing quote');
    }
    const c = text[i];
    if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r') {
      if (text[i + 1] !== '\n') fail('CR without LF');
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (c === '\n') fail('bare LF');
    else if (c === '"') fail('quote inside an unquoted field');
    else if (c !== undefined) {
      field += c;
      i++;
    }
  }
  if (field !== '' || record.length > 0) fail('last record without CRLF');
  return records;
}
