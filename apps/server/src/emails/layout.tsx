import type { CSSProperties, ReactNode, TableHTMLAttributes } from 'react';
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Html } from '@react-email/html';
import { Img } from '@react-email/img';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { render } from '@react-email/render';
import { Text } from '@react-email/text';
import { EMAIL_FONTS, EMAIL_FONTS_PATH, type MailContent } from './model.js';

/**
 * The one layout of every mail, built with React Email: inline styles on tables (what Outlook and
 * Gmail keep), one <style> in the head for what cannot be inline (narrow screens, dark mode), which
 * clients without it simply ignore. Colours, font and radii are the screens' (apps/web global.css).
 */

const BLUE = '#0E74CC';
const light = {
  page: '#F3F6F9',
  card: '#FFFFFF',
  line: '#D9DEE3',
  text: '#263035',
  muted: '#5F6368',
  codeBox: '#EEF5FC',
  codeLine: '#B9D6F2',
  /** Links written out (the footer's, the copyable link): the screens' --blue-dark, 6.4:1 on the page, 6.9:1 on the card. */
  link: '#0A5BA1',
};
const dark = {
  page: '#0F161D',
  card: '#1A232C',
  line: '#33404C',
  text: '#E8EDF2',
  muted: '#AAB4BE',
  codeBox: '#0F2B45',
  codeLine: '#3C8BD6',
  code: '#FFFFFF',
  link: '#6CB4F5',
};

const LATIN = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
/** Poppins has Devanagari too; where it is missing, each system's own Devanagari face before the Latin ones. */
const DEVANAGARI = "'Noto Sans Devanagari', 'Nirmala UI', 'Kohinoor Devanagari', Mangal, 'Devanagari Sangam MN'";
const MONO = "'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', 'Courier New', monospace";
const fontFor = (c: MailContent) => `Poppins, ${c.language === 'hi' ? `${DEVANAGARI}, ` : ''}${LATIN}`;

const CODE_SPACING = 8;
/** Extra room between the code's two halves (added to the letter spacing). */
const CODE_GROUP_GAP = 14;

/** "012345" → ["012", "345"]: the code screen's grouping; a code of another length stays whole. */
function codeGroups(code: string): string[] {
  return code.length === 6 ? [code.slice(0, 3), code.slice(3)] : [code];
}

/**
 * Poppins from PUBLIC_URL for the clients that load web fonts, hidden from Outlook for Windows
 * (2007-2016 and later Word-engine versions): given a web font it cannot load, it shows Times New Roman
 * instead of going down the font stack. Outlook reads only the `[if mso]` block, which names the system
 * fonts (the code box keeps a monospaced one); every other client reads only the `[if !mso]` one.
 */
function fontBlocks(c: MailContent): string {
  const faces = EMAIL_FONTS.map(
    (f) =>
      `@font-face { font-family: 'Poppins'; font-style: normal; font-weight: ${f.weight}; font-display: swap; src: url('${c.publicUrl}${EMAIL_FONTS_PATH}/${f.file}') format('woff2'); unicode-range: ${f.range}; }`,
  ).join('\n');
  // Outlook takes the first font of a stack only: a Windows one.
  const system = `${c.language === 'hi' ? "'Nirmala UI', Mangal, " : ''}'Segoe UI', Arial, sans-serif`;
  return (
    `<!--[if !mso]><!--><style>\n${faces}\n</style><!--<![endif]-->` +
    `<!--[if mso]><style>body, table, td, div, p, a, span, h1 { font-family: ${system} !important; } .em-code { font-family: Consolas, 'Courier New', monospace !important; }</style><![endif]-->`
  );
}

/** Dark mode (clients that honour prefers-color-scheme; `[data-ogsc]`/`[data-ogsb]` are Outlook.com's); narrow screens. */
const css = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
body { margin: 0; padding: 0; -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
@media only screen and (max-width: 480px) {
  .em-outer { padding: 16px 8px !important; }
  .em-pad { padding: 24px 18px !important; }
  .em-h1 { font-size: 21px !important; line-height: 28px !important; }
  .em-code { font-size: 30px !important; letter-spacing: 6px !important; padding-left: 6px !important; }
  .em-code-gap { padding-left: 10px !important; }
}
@media (prefers-color-scheme: dark) {
  .em-bg { background-color: ${dark.page} !important; }
  .em-card { background-color: ${dark.card} !important; border-color: ${dark.line} !important; }
  .em-text { color: ${dark.text} !important; }
  .em-muted { color: ${dark.muted} !important; }
  .em-codebox { background-color: ${dark.codeBox} !important; border-color: ${dark.codeLine} !important; }
  .em-code { color: ${dark.code} !important; }
  .em-link { color: ${dark.link} !important; }
  .em-urlbox { background-color: ${dark.page} !important; border-color: ${dark.line} !important; }
  .em-hr { border-color: ${dark.line} !important; }
}
[data-ogsb] .em-bg { background-color: ${dark.page} !important; }
[data-ogsb] .em-card { background-color: ${dark.card} !important; }
[data-ogsb] .em-codebox { background-color: ${dark.codeBox} !important; }
[data-ogsb] .em-urlbox { background-color: ${dark.page} !important; }
[data-ogsc] .em-text { color: ${dark.text} !important; }
[data-ogsc] .em-muted { color: ${dark.muted} !important; }
[data-ogsc] .em-code { color: ${dark.code} !important; }
[data-ogsc] .em-link { color: ${dark.link} !important; }
`;

/**
 * A one-cell layout table (role=presentation: screen readers read it as plain text); `className`, `style`
 * and `align` are the cell's, `table` the table's own attributes.
 */
function Box({
  children,
  className,
  style,
  align,
  table,
}: {
  children: ReactNode;
  className?: string;
  style?: CSSProperties;
  align?: 'center' | 'left';
  table?: TableHTMLAttributes<HTMLTableElement>;
}) {
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      border={0}
      {...table}
      style={{ borderCollapse: 'separate', ...table?.style }}
    >
      <tbody>
        <tr>
          <td className={className} align={align} style={style}>
            {children}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** The style of a rounded, bordered cell (the card, the code box). */
function framed(
  fill: string,
  line: string,
  borderRadius: number,
  padding: string,
  textAlign: 'left' | 'right' | 'center',
): CSSProperties {
  return { backgroundColor: fill, border: `1px solid ${line}`, borderRadius, padding, textAlign };
}

function CodeBox({ code }: { code: string }) {
  return (
    <Box className="em-codebox" align="center" style={framed(light.codeBox, light.codeLine, 14, '20px 12px', 'center')}>
      {/*
       * Grouped 3-3 as the code screen's boxes are, by padding and not by a space: the two halves are
       * adjacent spans with nothing between them, so a selection (user-select: all where supported) and
       * a copy carry the six digits only. Clients that drop the padding show the six digits together.
       */}
      <div
        className="em-code"
        style={{
          fontFamily: MONO,
          fontSize: 36,
          lineHeight: '44px',
          fontWeight: 700,
          letterSpacing: CODE_SPACING,
          paddingLeft: CODE_SPACING,
          color: light.text,
          whiteSpace: 'nowrap',
          userSelect: 'all',
          WebkitUserSelect: 'all',
        }}
      >
        {codeGroups(code).map((group, i) =>
          i === 0 ? (
            <span key={i}>{group}</span>
          ) : (
            <span key={i} className="em-code-gap" style={{ paddingLeft: CODE_GROUP_GAP }}>
              {group}
            </span>
          ),
        )}
      </div>
    </Box>
  );
}

function Mail({ c }: { c: MailContent }) {
  const font = fontFor(c);
  const text: CSSProperties = {
    fontFamily: font,
    fontSize: 16,
    lineHeight: '24px',
    color: light.text,
    margin: '0 0 16px',
  };
  const muted: CSSProperties = { ...text, fontSize: 14, lineHeight: '21px', color: light.muted, margin: '0 0 8px' };
  return (
    <Html lang={c.lang} dir={c.dir}>
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <meta name="format-detection" content="telephone=no, date=no, address=no, email=no" />
        <title>{c.subject}</title>
        <style dangerouslySetInnerHTML={{ __html: css }} />
      </Head>
      <Body className="em-bg" style={{ margin: 0, padding: 0, backgroundColor: light.page, fontFamily: font }}>
        <Preview>{c.preview}</Preview>
        <Box
          table={{ lang: c.lang, dir: c.dir, className: 'em-bg', style: { backgroundColor: light.page } }}
          className="em-outer"
          align="center"
          style={{ padding: '32px 12px' }}
        >
          {/* width="600" for Outlook on Windows, which ignores max-width; the CSS makes it fluid everywhere else. */}
          <Container width="600" style={{ maxWidth: 600, width: '100%' }}>
            <Header c={c} font={font} />
            <Box
              className="em-card em-pad"
              style={framed(light.card, light.line, 24, '32px 36px', c.dir === 'rtl' ? 'right' : 'left')}
            >
              <Heading
                as="h1"
                className="em-text em-h1"
                style={{
                  fontFamily: font,
                  fontSize: 24,
                  lineHeight: '32px',
                  fontWeight: 600,
                  color: light.text,
                  margin: '0 0 16px',
                }}
              >
                {c.heading}
              </Heading>
              {c.replaces ? (
                <Text className="em-text" style={{ ...text, fontWeight: 600 }}>
                  {c.replaces}
                </Text>
              ) : null}
              <Text className="em-text" style={text}>
                {c.intro}
              </Text>
              {c.code ? <CodeBox code={c.code} /> : null}
              {c.action ? <Action action={c.action} font={font} muted={muted} /> : null}
              <Text className="em-text" style={{ ...text, margin: '16px 0 0' }}>
                {c.validity}
              </Text>
              <hr
                className="em-hr"
                style={{ border: 'none', borderTop: `1px solid ${light.line}`, margin: '24px 0' }}
              />
              {c.requested ? (
                <Text className="em-muted" style={muted}>
                  {c.requested}
                </Text>
              ) : null}
              <Text className="em-muted" style={muted}>
                {c.why}
              </Text>
              <Text className="em-muted" style={{ ...muted, margin: 0 }}>
                {c.ignore}
              </Text>
            </Box>
            <Footer c={c} font={font} />
          </Container>
        </Box>
      </Body>
    </Html>
  );
}

function Header({ c, font }: { c: MailContent; font: string }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} border={0} style={{ margin: '0 0 20px' }}>
      <tbody>
        <tr>
          <td style={{ verticalAlign: 'middle', padding: '0 10px 0 4px' }}>
            <Img src={c.logoUrl} width="36" height="36" alt={c.appTitle} style={{ borderRadius: 10 }} />
          </td>
          <td
            className="em-text"
            style={{
              verticalAlign: 'middle',
              fontFamily: font,
              fontSize: 21,
              lineHeight: '28px',
              fontWeight: 600,
              color: light.text,
            }}
          >
            {c.appTitle}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

function Action({
  action,
  font,
  muted,
}: {
  action: NonNullable<MailContent['action']>;
  font: string;
  muted: CSSProperties;
}) {
  return (
    <>
      <Box align="center" style={{ padding: '8px 0 20px', textAlign: 'center' }}>
        <Button
          href={action.url}
          className="em-button"
          style={{
            backgroundColor: BLUE,
            color: '#FFFFFF',
            borderRadius: 40,
            padding: '14px 32px',
            fontFamily: font,
            fontSize: 16,
            lineHeight: '24px',
            fontWeight: 600,
            textDecoration: 'none',
          }}
        >
          {action.label}
        </Button>
      </Box>
      {/* For clients that block the button: a short line, then the link in a box that wraps it (never wider than the card). */}
      <Text className="em-muted" style={{ ...muted, margin: '0 0 6px' }}>
        {action.fallback}
      </Text>
      <Box
        className="em-urlbox"
        table={{ style: { tableLayout: 'fixed' } }}
        style={{
          ...framed(light.page, light.line, 10, '10px 12px', 'left'),
          fontFamily: font,
          fontSize: 13,
          lineHeight: '19px',
          maxWidth: '100%',
          wordBreak: 'break-all',
          overflowWrap: 'anywhere',
        }}
      >
        <Address url={action.url} />
      </Box>
    </>
  );
}

/** Longest run of a written-out address with no place to wrap. */
const URL_PIECE = 20;

/**
 * An address written out as its own link text, with a `<wbr>` every 20 characters: it wraps there even
 * in clients that drop the CSS wrapping rules, and still copies as one address.
 */
function Address({ url }: { url: string }) {
  const pieces = url.match(new RegExp(`.{1,${URL_PIECE}}`, 'gu')) ?? [];
  return (
    <Link
      href={url}
      className="em-link"
      style={{ color: light.link, textDecoration: 'underline', wordBreak: 'break-all', overflowWrap: 'anywhere' }}
    >
      {pieces.flatMap((piece, i) => (i === 0 ? [piece] : [<wbr key={i} />, piece]))}
    </Link>
  );
}

function Footer({ c, font }: { c: MailContent; font: string }) {
  const style: CSSProperties = {
    fontFamily: font,
    fontSize: 13,
    lineHeight: '20px',
    color: light.muted,
    margin: '0 0 4px',
  };
  return (
    <Box align="center" style={{ padding: '20px 12px 0', textAlign: 'center' }}>
      <Text className="em-muted" style={style}>
        {c.footer} <Address url={c.publicUrl} />
      </Text>
      <Text className="em-muted" style={{ ...style, margin: 0 }}>
        {c.footerAuto}
      </Text>
    </Box>
  );
}

export async function renderHtml(content: MailContent): Promise<string> {
  const html = await render(<Mail c={content} />);
  // React cannot write conditional comments: the font blocks go in as text, just before </head>.
  return html.replace('</head>', `${fontBlocks(content)}</head>`);
}
