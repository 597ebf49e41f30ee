// Hostile text shared by the security and fuzz tests.

/** SQL injection and XSS payloads; none has leading or trailing blanks (names are trimmed). */
export const hostileTexts = [
  `Robert'); DROP TABLE student_reports;--`,
  `' OR '1'='1`,
  `" OR ""="`,
  `1; SELECT pg_sleep(5)--`,
  `x' UNION SELECT id, email, password_hash FROM users--`,
  `%' OR 1=1 --`,
  `\\'; DELETE FROM users WHERE ''='`,
  `$1 $$ E'\\x00' ::text`,
  `<script>window.__pwned=1</script>`,
  `<img src=x onerror="window.__pwned=1;alert(1)">`,
  `"><svg/onload=window.__pwned=1>`,
  `javascript:window.__pwned=1`,
  `{{constructor.constructor('window.__pwned=1')()}}`,
  `<iframe srcdoc="<script>parent.__pwned=1</script>">`,
  // A right-to-left mark and a zero-width space (allowed; the overrides U+202A-U+202E are not).
  `${"\u200f"}evil${"\u200b"} 漢字 🙂 O'Brien`,
  `=HYPERLINK("http://evil.example","x")`,
];
