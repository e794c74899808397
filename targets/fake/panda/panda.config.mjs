export default { include: [], outdir: 'styled-system' }
