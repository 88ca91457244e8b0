import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * Article Markdown as HTML, safely (CONTRACT 9): raw HTML in the source is dropped (`skipHtml`; no
 * rehype-raw), so `<script>` and `onerror=` never reach the page, and link and image addresses pass
 * react-markdown's URL filter, which keeps http(s), mailto, tel and relative addresses and empties
 * `javascript:` and other schemes. Renders on the server and in the browser alike (the editor's preview).
 */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={`markdown ${className ?? ''}`}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        urlTransform={defaultUrlTransform}
        components={{
          a: ({ node: _node, ...props }) => <a {...props} rel="noopener noreferrer nofollow" />,
          // An address the URL filter emptied leaves no image (an empty src would fetch the page itself).
          img: ({ node: _node, src, alt, ...props }) => (src ? <img src={src} alt={alt ?? ''} {...props} /> : alt ? <span>{alt}</span> : null),
          // The page around an article has its own h1 (the title): the article's headings sit one level below.
          h1: ({ node: _node, ...props }) => <h2 {...props} />,
          h2: ({ node: _node, ...props }) => <h3 {...props} />,
          h3: ({ node: _node, ...props }) => <h4 {...props} />,
          h4: ({ node: _node, ...props }) => <h5 {...props} />,
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
