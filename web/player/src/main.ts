import './style.css';
document.body.append('player');
