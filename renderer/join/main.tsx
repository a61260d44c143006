/** The join page's entry point (being moved from renderer/join.ts into the web app). */
import { render } from 'preact';
import '../chat/style.css';
import '../chat/admin/admin.css';

render(<p class="boot">Moving…</p>, document.getElementById('app')!);
