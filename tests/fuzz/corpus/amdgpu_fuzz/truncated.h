/*
 * MIT
 */
#ifndef _g_OFFSET_HEADER
#define regGRBM_CNTL 0x0000
#define regGRBM_CNTL_BASE_IDX 0
#define regGRBM_CN