# Generates the cases of this folder: Triton 3.6 kernels over edge-case inputs
# (libdevice integer functions, float -> int conversions, signed/unsigned
# descriptors). `python3 make_cases.py -g` on a machine with an NVIDIA GPU
# writes OUT/cases/<case>/ (kernel.ttir, manifest.json, inputs, the GPU's
# outputs); without -g it only compiles (cuda:90) and writes no outputs.
# The kernels are generated into kk.py, the file their locations name.
import os,sys,json,tarfile,importlib,numpy as np,triton
O=os.environ.get("OUT","out");G="-g" in sys.argv
H='''import triton,triton.language as tl
from triton.language import core
from triton.language.extra.cuda import libdevice as L
def X(n,a,t,_semantic=None):
 d=core.dtype
 return core.extern_elementwise("","",a,{(d(k),)*len(a):("__nv_"+s,d(k)) for k,s in t},is_pure=True,_semantic=_semantic)
@core.extern
def mn(a,b,_semantic=None):return X(0,[a,b],[("int32","min"),("uint32","umin"),("int64","llmin"),("uint64","ullmin")],_semantic)
@core.extern
def mx(a,b,_semantic=None):return X(0,[a,b],[("int32","max"),("uint32","umax"),("int64","llmax"),("uint64","ullmax")],_semantic)
'''
def K(name,ins,outs):
 global H
 H+="@triton.jit\ndef %s(%s,B:tl.constexpr):\n i=tl.arange(0,B)\n"%(name,",".join(ins+[o for o,_ in outs]))
 H+="".join(" %s=tl.load(%s+i)\n"%(a,a) for a in ins)
 H+="".join(" tl.store(%s+i,%s)\n"%(o,e) for o,e in outs)
U="tl.uint32,bitcast=True"
K("k_unary",["x"],[(n,"L.%s(x)"%n[2:]) for n in ["o_abs","o_brev","o_clz","o_ffs","o_popc"]])
K("k_binary32",["x","y"],[("o_"+n,"%s(x,y)"%f) for n,f in [("hadd","L.hadd"),("rhadd","L.rhadd"),("mul24","L.mul24"),("mulhi","L.mulhi"),("min","mn"),("max","mx")]])
K("k_binary64",["x","y"],[("o_mulhi","L.mulhi(x,y)"),("o_min","mn(x,y)"),("o_max","mx(x,y)")])
K("k_ternary",["x","y","z"],[("o_sad","L.sad(x,y,z)"),("o_usad","L.sad(x.to(%s),y.to(%s),z)"%(U,U)),("o_perm","L.byte_perm(x,y,z.to(tl.int32,bitcast=True))")])
CT=["i8","u8","i16","u16","i32","u32","i64","u64"]
TN={"i8":"int8","u8":"uint8","i16":"int16","u16":"uint16","i32":"int32","u32":"uint32","i64":"int64","u64":"uint64"}
K("k_cvt",["x"],[("o_"+t,"x.to(tl.%s)"%TN[t]) for t in CT]+[("o_wide","x.to(tl.int8).to(tl.int32)")])
R=["rn","rz","rd","ru"]
def LIB(p,extra):return [("o%d"%j,"L.%s2%s_%s(x)"%(p,["int","uint","ll","ull"][j//4],R[j%4])) for j in range(16)]+[("o_"+a,"L.%s(x)"%b) for a,b in extra]
E2=[("llrint","llrint"),("llround","llround"),("ilogb","ilogb"),("isnan","isnan"),("isinf","isinf")]
K("k_lib32",["x"],LIB("float",E2+[("finite","finitef"),("signbit","signbit")]))
K("k_lib64",["x"],LIB("double",E2+[("finite","isfinited"),("signbit","signbit"),("hi","double2hiint"),("lo","double2loint")]))
H+='''@triton.jit
def k_desc(d_umin,d_umax,d_smin,d_smax,d_u8in,d_u8out,v,w,B:tl.constexpr):
 a=tl.load(v+tl.arange(0,B))
 d_umin.atomic_min([0],a.to(tl.uint32,bitcast=True))
 d_umax.atomic_max([0],a.to(tl.uint32,bitcast=True))
 d_smin.atomic_min([0],a)
 d_smax.atomic_max([0],a)
 d_u8out.store([0,0],d_u8in.load([0,0])+tl.load(w+tl.arange(0,16)[:,None]*16+tl.arange(0,16)[None,:]))
'''
open("kk.py","w").write(H);sys.path.insert(0,".");M=importlib.import_module("kk")
rng=np.random.default_rng(20261201)
E32=[0,1,-1,2,-2,3,0x7fffffff,-0x80000000,-0x7fffffff,0x7fffff,0x800000,-0x800000,0xffffff,0x12345678,-0x76543211,0x55555555]
E32x=E32+[0x1000000,0xffff,0x10000,-0x55555556,255,256,100,-100,0x40000000,-0x40000000,0x7ffffffe,0xff00ff,-3,7,0x80,-2]
E64=[0,1,-1,2,-2,3,2**63-1,-2**63,-2**63+1,0xffffffff,2**32,-2**32,0x123456789abcdef0,-0x7fffffffffffffff+0x1234,0x7fffffff,-0x80000000]
inf=float("inf")
FE=[float("nan"),inf,-inf,0.,-0.,.5,-.5,.99,-.99,1.,-1.,1.5,-1.5,2.5,-2.5,127.,127.5,128.,-128.,-128.5,-129.,200.,-200.,255.,255.5,256.,300.,-300.,32767.,32767.5,32768.,-32768.,-32769.,4e4,-4e4,65535.,65536.,7e4,-7e4,2147483520.,2.**31,-2.**31,-2.**31-256,3e9,4294967040.,2.**32,5e9,-5e9,2.**62,2.**63,-2.**63,-1.5*2**63,1e19,1.8e19,2.**64,1e30,-1e30,3.4e38,-3.4e38,1e-30,-1e-30,1e300,-1e300,5e-324]
def ints(v,n,dt,b):
 v=list(v)
 while len(v)<n:v.append(int(rng.integers(-2**(b-1),2**(b-1),dtype=np.int64)))
 return np.array([(x+2**b)%2**b for x in v[:n]],dtype=np.uint64).astype(dt)
def pairs(v,dt,b):return ints([a for a in v for _ in v],len(v)**2,dt,b),ints([c for _ in v for c in v],len(v)**2,dt,b)
NP=dict(i8=np.int8,u8=np.uint8,i16=np.int16,u16=np.uint16,i32=np.int32,u32=np.uint32,i64=np.int64,u64=np.uint64,f32=np.float32,f64=np.float64,f16=np.float16,bf16=np.uint16)
TT=dict(TN,f32="fp32",f64="fp64",f16="fp16",bf16="bf16")
TT={k:(k if k[0] in "iu" else v) for k,v in TT.items()}
def bf(a):
 b=a.astype(np.float32).view(np.uint32);return np.where(np.isnan(a),np.uint16(0x7fc0),((b+0x7fff+((b>>16)&1))>>16).astype(np.uint16))
def save(name,kern,args,ttir):
 d=O+"/cases/"+name;open(d+"/kernel.ttir","w").write(ttir)
 json.dump({"name":name,"kernel":kern,"ttir":"kernel.ttir","target":"cuda:90","grid":[1,1,1],"num_warps":4,"num_stages":3,"args":args,"triton_version":triton.__version__},open(d+"/manifest.json","w"),indent=1)
def case(name,kern,ins,outs,n):
 d=O+"/cases/"+name;os.makedirs(d,exist_ok=True);args=[]
 for a,t,x in ins:
  x.tofile(d+"/%s.in.bin"%a);args.append(dict(name=a,kind="buffer",dtype=t,shape=[n],role="input",file=a+".in.bin"))
 for a,t in outs:args.append(dict(name=a,kind="buffer",dtype=t,shape=[n],role="output",expect=a+".out.bin",tolerance=dict(rtol=0,atol=0)))
 k=getattr(M,kern)
 if G:
  import torch
  td=dict(i8=torch.int8,u8=torch.uint8,i16=torch.int16,u16=torch.uint16,i32=torch.int32,u32=torch.uint32,i64=torch.int64,u64=torch.uint64,f32=torch.float32,f64=torch.float64,f16=torch.float16,bf16=torch.bfloat16)
  ti=[torch.from_numpy(x.view(np.uint8).copy()).cuda().view(td[t]) for _,t,x in ins]
  to=[torch.full((n*np.dtype(NP[t]).itemsize,),0xA5,dtype=torch.uint8,device="cuda") for _,t in outs]
  c=k[(1,)](*ti,*[o.view(td[t]) for o,(_,t) in zip(to,outs)],B=n);torch.cuda.synchronize()
  for o,(a,_) in zip(to,outs):o.cpu().numpy().tofile(d+"/%s.out.bin"%a)
  tt=c.asm["ttir"]
 else:
  from triton.backends.compiler import GPUTarget;from triton.compiler import ASTSource
  sg={a:"*"+TT[t] for a,t,_ in ins};sg.update({a:"*"+TT[t] for a,t in outs});sg["B"]="constexpr"
  tt=triton.compile(ASTSource(k,sg,{"B":n}),target=GPUTarget("cuda",90,32)).asm["ttir"]
 save(name,kern,args,tt)
for t,b in [("i32",32),("i64",64)]:case("unary_"+t,"k_unary",[("x",t,ints(E32x if b==32 else E64,256,NP[t],b))],[(o,t if o in("o_abs","o_brev") else "i32") for o in ["o_abs","o_brev","o_clz","o_ffs","o_popc"]],256)
for t in ["i32","u32"]:
 x,y=pairs(E32,NP[t],32);case("binary_"+t,"k_binary32",[("x",t,x),("y",t,y)],[("o_"+o,t) for o in "hadd rhadd mul24 mulhi min max".split()],256)
for t in ["i64","u64"]:
 x,y=pairs(E64,NP[t],64);case("binary_"+t,"k_binary64",[("x",t,x),("y",t,y)],[("o_"+o,t) for o in "mulhi min max".split()],256)
x,y=pairs(E32,np.int32,32)
Z=[0,1,0x3210,0x7654,0x0123,0x4567,0x7777,0x8888,0xffff,0x12345678,0xdeadbeef,0x5140,0x0f0f,0x1111,0x6666,0x80000000,0x7fffffff,0xfffffffe,5,100,0xff]
case("ternary_i32","k_ternary",[("x","i32",x),("y","i32",y),("z","u32",ints([Z[(i*7+i//16)%21] for i in range(256)],256,np.uint32,32))],[("o_sad","i32"),("o_usad","u32"),("o_perm","i32")],256)
fl=FE[:]
while len(fl)<128:fl.append(float(rng.choice([-1,1])*10**rng.uniform(-3,21)))
fl=np.array(fl)
for t in ["f32","f64","f16","bf16"]:case("cvt_"+t,"k_cvt",[("x",t,bf(fl) if t=="bf16" else fl.astype(NP[t]))],[("o_"+c,c) for c in CT]+[("o_wide","i32")],128)
lo=[("o%d"%j,["i32","u32","i64","u64"][j//4]) for j in range(16)]+[("o_llrint","i64"),("o_llround","i64")]+[("o_"+a,"i32") for a in "ilogb isnan isinf finite signbit".split()]
case("libcvt_f32","k_lib32",[("x","f32",fl.astype(np.float32))],lo,128)
case("libcvt_f64","k_lib64",[("x","f64",fl)],lo+[("o_hi","i32"),("o_lo","i32")],128)
n=64;d=O+"/cases/desc_signedness";os.makedirs(d,exist_ok=True)
init=ints(E32x+E32x,n,np.int32,32);v=ints(list(reversed(E32x))+E32,n,np.int32,32)
ua=rng.integers(0,256,256).astype(np.uint8);ub=rng.integers(0,256,256).astype(np.uint8)
T0=dict(rtol=0,atol=0);D=["d_umin","d_umax","d_smin","d_smax"];args=[]
for a in D:
 init.tofile(d+"/%s.in.bin"%a);args.append(dict(name=a,kind="tensor_descriptor",dtype="u32" if a[2]=="u" else "i32",shape=[n],block=[n],role="inout",file=a+".in.bin",expect=a+".out.bin",tolerance=T0))
ua.tofile(d+"/d_u8in.in.bin");v.tofile(d+"/v.in.bin");ub.tofile(d+"/w.in.bin")
args+=[dict(name="d_u8in",kind="tensor_descriptor",dtype="u8",shape=[16,16],block=[16,16],role="input",file="d_u8in.in.bin"),dict(name="d_u8out",kind="tensor_descriptor",dtype="u8",shape=[16,16],block=[16,16],role="output",expect="d_u8out.out.bin",tolerance=T0),dict(name="v",kind="buffer",dtype="i32",shape=[n],role="input",file="v.in.bin"),dict(name="w",kind="buffer",dtype="u8",shape=[256],role="input",file="w.in.bin")]
if G:
 import torch;from triton.tools.tensor_descriptor import TensorDescriptor as TD
 bs=[torch.from_numpy(init.copy()).cuda() for _ in D];bs[0]=bs[0].view(torch.uint32);bs[1]=bs[1].view(torch.uint32)
 A=torch.from_numpy(ua.reshape(16,16).copy()).cuda();Bo=torch.full((16,16),0xA5,dtype=torch.uint8,device="cuda")
 c=M.k_desc[(1,)](*[TD.from_tensor(b,[n]) for b in bs],TD.from_tensor(A,[16,16]),TD.from_tensor(Bo,[16,16]),torch.from_numpy(v.copy()).cuda(),torch.from_numpy(ub.copy()).cuda(),B=n);torch.cuda.synchronize()
 for b,a in zip(bs,D):b.view(torch.int32).cpu().numpy().tofile(d+"/%s.out.bin"%a)
 Bo.cpu().numpy().tofile(d+"/d_u8out.out.bin");tt=c.asm["ttir"]
else:
 from triton.backends.compiler import GPUTarget;from triton.compiler import ASTSource
 sg=dict(d_umin="tensordesc<u32[64]>",d_umax="tensordesc<u32[64]>",d_smin="tensordesc<i32[64]>",d_smax="tensordesc<i32[64]>",d_u8in="tensordesc<u8[16, 16]>",d_u8out="tensordesc<u8[16, 16]>",v="*i32",w="*u8",B="constexpr")
 tt=triton.compile(ASTSource(M.k_desc,sg,{"B":n}),target=GPUTarget("cuda",90,32)).asm["ttir"]
save("desc_signedness","k_desc",args,tt)
with tarfile.open(O+"/cases.tar.gz","w:gz") as f:f.add(O+"/cases",arcname="cases")
print("done")
