import { createRequire } from 'node:module';
import type * as XmlDom from '@xmldom/xmldom';

let xmldom: typeof XmlDom | undefined;
// Through createRequire, not an import: the XML parser is read on the first SAML answer or metadata
// document, not at every start (most deployments parse no XML; it is some 90 KiB of the start bundle).
const load = () => (xmldom ??= createRequire(import.meta.url)('@xmldom/xmldom') as typeof XmlDom);

/** xmldom's DOMParser, loaded on its first `new`. */
export const DOMParser = function (options: XmlDom.Options = {}) {
  return new (load().DOMParser)(options);
} as unknown as XmlDom.DOMParserStatic;
