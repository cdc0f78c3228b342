// The page's module for every bundler but Next, whose client component starts the page itself.
import { start } from './page.js';

start();
