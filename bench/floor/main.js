// The client baseline: the smallest React 19 app (one component with state), built by the project's Vite.
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  const [count, setCount] = useState(0);
  return h('button', { type: 'button', onClick: () => setCount(count + 1) }, `Clicked ${count} times`);
}

createRoot(document.getElementById('root')).render(h(App));
